package io.mclb.probe;

import io.mclb.net.Transports;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;

import java.net.InetSocketAddress;

/**
 * A check over one TCP connection per run (tcp, http): connect on the probe's loop, then the
 * type's {@link #connected} decides; the connection is closed when the run ends, is cancelled or
 * the check closes, so a target that never answers costs its timeout and one socket, never a
 * thread. Confined to the context's loop.
 */
abstract class TcpCheck implements ProbeCheck {
    @ChannelHandler.Sharable
    private static final class Idle extends ChannelInboundHandlerAdapter {
    }

    private static final ChannelHandler IDLE = new Idle();

    private final InetSocketAddress target;
    private final Bootstrap bootstrap;
    private Channel current;

    /**
     * @param resetOnClose close with RST (SO_LINGER 0): a connect-only check leaves no TIME_WAIT
     *                     behind, which at thousands of reals a second would pile up
     */
    TcpCheck(ProbeContext ctx, InetSocketAddress target, int connectTimeoutMs, boolean resetOnClose) {
        this.target = target;
        this.bootstrap = new Bootstrap().group(ctx.loop()).channelFactory(Transports.streamFactory(target.getAddress()))
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMs)
                .option(ChannelOption.TCP_NODELAY, true).handler(IDLE);
        if (resetOnClose) {
            bootstrap.option(ChannelOption.SO_LINGER, 0);
        }
    }

    /** The connection is up; report the run through {@code result} (now or once answered). */
    protected abstract void connected(Channel ch, ProbeResult result);

    protected final InetSocketAddress target() {
        return target;
    }

    @Override
    public String targetLabel() {
        return ProbeTargets.label(target) + " (tcp)";
    }

    @Override
    public final void run(ProbeResult result) {
        cancel();
        ChannelFuture f = bootstrap.connect(target);
        Channel ch = f.channel();
        current = ch;
        f.addListener(done -> {
            if (current != ch) {
                ch.close();
                return;
            }
            if (!done.isSuccess()) {
                current = null;
                result.fail(reason(done.cause()));
                return;
            }
            connected(ch, result);
        });
    }

    /** Ends the run's connection (the run ended, timed out or the check closes). */
    protected final void finish(Channel ch) {
        if (current == ch) {
            current = null;
        }
        ch.close();
    }

    private String reason(Throwable t) {
        if (t instanceof ConnectTimeoutException) {
            return "connect timed out";
        }
        return connectFailure(String.valueOf(t.getMessage()), target);
    }

    /** What a failed connect to {@code target} says, from the error's message; shared with {@link TcpProbeSockets}. */
    static String connectFailure(String message, InetSocketAddress target) {
        if (message.contains("Connection refused")) {
            return "connection refused";
        }
        if (message.contains("No route to host") || message.contains("Network is unreachable")) {
            return "no route to " + ProbeTargets.label(target);
        }
        if (message.contains("Connection timed out")) {
            return "connect timed out";
        }
        return "connect failed: " + message;
    }

    @Override
    public final void cancel() {
        Channel ch = current;
        current = null;
        if (ch != null) {
            ch.close();
        }
    }

    @Override
    public final void close() {
        cancel();
    }
}
