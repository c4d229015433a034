package io.mclb.probe;

import java.net.Inet6Address;
import java.net.InetSocketAddress;

/**
 * The tcp probe's check on an epoll loop: a connect on one of the loop's {@link TcpProbeSockets};
 * the handshake completing passes, a refusal or an unreachable network fails, silence is the
 * probe's timeout (which aborts the connect). Confined to the context's loop.
 */
final class TcpConnectCheck implements ProbeCheck, TcpProbeSockets.Waiter {
    private final InetSocketAddress target;
    private final TcpProbeSockets sockets;
    private TcpProbeSockets.Conn current;
    private ProbeResult inFlight;
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
        current = sockets.connect(target, this);
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
