package io.mclb.probe;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.net.InetSocketAddress;

/**
 * A request/answer probe over UDP (GTP echo, RADIUS Status-Server, DNS, custom udp) toward one
 * real: one request per run, the first answer from the real's address and port that the type
 * {@link #judge judges} decides the run. The socket is the loop's {@link UdpProbeSocket} of the
 * probe, bound asynchronously on first use; a run started before the bind completes is sent then.
 * Confined to the context's loop.
 */
public abstract class UdpCheck implements ProbeCheck {
    /** What {@link #judge} says about one datagram from the target. */
    protected enum Verdict { PASS, FAIL, NOT_MINE }

    private final ProbeContext ctx;
    private final InetSocketAddress target;
    private final Member member = new Member();
    private UdpProbeSocket socket;
    private boolean closed;
    private ProbeResult inFlight;
    private String failReason;

    protected UdpCheck(ProbeContext ctx, InetSocketAddress target) {
        this.ctx = ctx;
        this.target = target;
    }

    /** The request of this run; {@code alloc} belongs to the probe's socket. */
    protected abstract ByteBuf request(ByteBufAllocator alloc);

    /**
     * Judges a datagram from the target. For {@link Verdict#FAIL} call {@link #because} first.
     * Must not throw on any content.
     */
    protected abstract Verdict judge(ByteBuf answer);

    /** Sets the reason reported with a {@link Verdict#FAIL}. */
    protected final void because(String reason) {
        failReason = reason;
    }

    protected final InetSocketAddress target() {
        return target;
    }

    @Override
    public String targetLabel() {
        return ProbeTargets.label(target) + " (udp)";
    }

    @Override
    public final void run(ProbeResult result) {
        if (closed) {
            return;
        }
        inFlight = result;
        if (socket != null && socket.failed()) {
            socket.leave(member);
            socket = null;
        }
        if (socket == null) {
            socket = UdpProbeSocket.join(ctx.loop(), ctx.probe(), member);
        }
        socket.send(member);
    }

    @Override
    public final void cancel() {
        inFlight = null;
    }

    private void report(boolean ok, String reason) {
        ProbeResult r = inFlight;
        inFlight = null;
        if (r != null) {
            if (ok) {
                r.pass();
            } else {
                r.fail(reason);
            }
        }
    }

    @Override
    public final void close() {
        closed = true;
        inFlight = null;
        if (socket != null) {
            socket.leave(member);
            socket = null;
        }
    }

    /** This check as its socket sees it. */
    private final class Member implements UdpProbeSocket.Member {
        @Override
        public InetSocketAddress target() {
            return target;
        }

        @Override
        public ByteBuf request(ByteBufAllocator alloc) {
            if (inFlight == null) {
                return null; // cancelled while the socket was being bound
            }
            try {
                return UdpCheck.this.request(alloc);
            } catch (RuntimeException e) {
                report(false, "cannot build the request: " + e);
                return null;
            }
        }

        @Override
        public boolean answer(ByteBuf content) {
            if (inFlight == null) {
                return false;
            }
            try {
                failReason = "rejected";
                Verdict v = judge(content);
                if (v == Verdict.NOT_MINE) {
                    return false;
                }
                report(v == Verdict.PASS, failReason);
            } catch (RuntimeException e) {
                report(false, "unreadable answer: " + e);
            }
            return true;
        }

        @Override
        public void unsent(String reason) {
            report(false, reason);
        }
    }
}
