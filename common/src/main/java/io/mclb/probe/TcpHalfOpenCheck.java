package io.mclb.probe;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * The tcp probe's half-open check: one SYN through the loop's {@link TcpRawSocket}; the target's
 * SYN-ACK passes (its kernel answers a SYN only when a listener has room in its accept queue), a
 * reset fails as "connection refused", silence is the probe's timeout. The host's kernel resets
 * the SYN-ACK, so the target's half-open connection goes at once. An IPv4 SYN's checksum needs
 * the source address the kernel will send it from: asked of the routing table at the first
 * check, after any failure and every {@value TcpProbeSockets#SOURCE_TTL_S} s, as the connect
 * check does, so a routing change moves the checks. Confined to the context's loop.
 */
final class TcpHalfOpenCheck implements ProbeCheck, TcpRawSocket.Waiter {
    private static final long SOURCE_TTL_NS = TcpProbeSockets.SOURCE_TTL_S * 1_000_000_000L;

    private final InetSocketAddress target;
    private final InetSocketAddress destination;
    private final boolean v6;
    private final int targetV4;
    private final TcpRawSocket socket;
    private ProbeResult inFlight;
    private int slot = -1;
    /** The IPv4 source of the target's route as an int; valid while {@link #sourceKnown}. */
    private int sourceV4;
    private boolean sourceKnown;
    private long sourceAskedNs;
    private boolean closed;

    /** @param socket acquired for this check; released by {@link #close()} */
    TcpHalfOpenCheck(InetSocketAddress target, TcpRawSocket socket) {
        this.target = target;
        this.destination = new InetSocketAddress(target.getAddress(), 0);
        this.v6 = target.getAddress() instanceof Inet6Address;
        this.targetV4 = v6 ? 0 : TcpSegment.v4(target.getAddress().getAddress());
        this.socket = socket;
    }

    @Override
    public String targetLabel() {
        return ProbeTargets.label(target) + " (tcp half-open)";
    }

    @Override
    public InetSocketAddress destination() {
        return destination;
    }

    @Override
    public int port() {
        return target.getPort();
    }

    @Override
    public void run(ProbeResult result) {
        cancel();
        if (!v6) {
            long now = System.nanoTime();
            if (!sourceKnown || now - sourceAskedNs > SOURCE_TTL_NS) {
                InetAddress source = socket.routeSource(target);
                sourceAskedNs = now;
                sourceKnown = source != null;
                if (!sourceKnown) {
                    result.fail("no route to " + ProbeTargets.label(target));
                    return;
                }
                sourceV4 = TcpSegment.v4(source.getAddress());
            }
        }
        inFlight = result;
        slot = socket.send(this, sourceV4, targetV4);
        if (slot < 0) {
            inFlight = null;
            result.fail("no free half-open check slot on this loop");
        }
    }

    @Override
    public void answered(boolean listening) {
        slot = -1;
        ProbeResult r = inFlight;
        inFlight = null;
        if (r == null) {
            return;
        }
        if (listening) {
            r.pass();
        } else {
            sourceKnown = false; // a route may have changed: ask again before the next check
            r.fail("connection refused");
        }
    }

    @Override
    public void unsent(String reason) {
        slot = -1;
        sourceKnown = false;
        ProbeResult r = inFlight;
        inFlight = null;
        if (r != null) {
            r.fail(TcpCheck.connectFailure("SYN not sent: " + reason, target));
        }
    }

    @Override
    public void cancel() {
        if (inFlight != null) {
            sourceKnown = false; // timed out: as after a failure
        }
        socket.forget(slot, this);
        slot = -1;
        inFlight = null;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            cancel();
            socket.release();
        }
    }
}
