package io.mclb.probe;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * The tcp probe's check on an epoll loop: a connect on one of the loop's {@link TcpProbeSockets};
 * the handshake completing passes, a refusal or an unreachable network fails, silence is the
 * probe's timeout (which aborts the connect). The connect leaves from a socket bound to the
 * source address the routing table gives the target, asked at the first check, after any
 * failure and every {@value TcpProbeSockets#SOURCE_TTL_S} s. Confined to the context's loop.
 */
final class TcpConnectCheck implements ProbeCheck, TcpProbeSockets.Waiter {
    private final InetSocketAddress target;
    private final TcpProbeSockets sockets;
    private TcpProbeSockets.Conn current;
    private ProbeResult inFlight;
    /** The source address of the target's route, null until asked or after a failure. */
    private InetAddress source;
    private long sourceAskedNs;
    private boolean closed;

    TcpConnectCheck(ProbeContext ctx, InetSocketAddress target) {
        this.target = target;
        this.sockets = TcpProbeSockets.acquire(ctx.loop(), target.getAddress() instanceof Inet6Address);
    }

    @Override
    public String targetLabel() {
        return ProbeTargets.label(target) + " (tcp)";
    }

    @Override
    public void run(ProbeResult result) {
        cancel();
        inFlight = result;
        long now = System.nanoTime();
        if (source == null || now - sourceAskedNs > TcpProbeSockets.SOURCE_TTL_S * 1_000_000_000L) {
            source = sockets.routeSource(target);
            sourceAskedNs = now;
        }
        current = sockets.connect(target, source, this, now);
    }

    @Override
    public void connected() {
        ProbeResult r = ended();
        if (r != null) {
            r.pass();
        }
    }

    @Override
    public void failed(String reason) {
        source = null; // a route may have changed: ask again before the next check
        ProbeResult r = ended();
        if (r != null) {
            r.fail(reason);
        }
    }

    private ProbeResult ended() {
        current = null;
        ProbeResult r = inFlight;
        inFlight = null;
        return r;
    }

    @Override
    public void cancel() {
        if (inFlight != null) {
            source = null; // timed out: as after a failure
        }
        TcpProbeSockets.Conn c = current;
        current = null;
        inFlight = null;
        if (c != null) {
            c.abandon();
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            cancel();
            sockets.release();
        }
    }
}
