package io.mclb.perf.load;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * The settings every {@link LoadDriver}-based generator takes, whatever its protocol: where to
 * send, from which address, over how many sockets, how fast (0 = closed loop), how many requests
 * outstanding per socket, when an unanswered one is lost and when to stop sending. A protocol's
 * builder extends it with its own settings; its limits (a window bounded by an 8-bit Identifier,
 * sockets by the bits a flow number has in a request) come in through the constructor, so every
 * generator refuses the same mistakes with the same words.
 *
 * @param <B> the protocol's builder, returned by every setter
 */
public abstract class LoadBuilder<B extends LoadBuilder<B>> {
    private final int maxSockets;
    private final int maxWindow;
    private InetSocketAddress target;
    private InetAddress source = InetAddress.getLoopbackAddress();
    private int sockets = 8;
    private long ratePerSecond;
    private int window;
    private long timeoutMs = 1_000;
    private Duration maxDuration;

    /** Defaults: the given rate and window, 8 sockets from loopback, 1 s timeout, no end. */
    protected LoadBuilder(long defaultRatePerSecond, int defaultWindow, int maxSockets, int maxWindow) {
        this.maxSockets = maxSockets;
        this.maxWindow = maxWindow;
        this.ratePerSecond = defaultRatePerSecond;
        this.window = defaultWindow;
    }

    /** This builder, as its own type. */
    protected abstract B self();

    /** Where requests go (required). */
    public B target(InetSocketAddress target) {
        this.target = Objects.requireNonNull(target, "target");
        return self();
    }

    /** Source IP of the sockets, and of the requests' own sender fields; default loopback. */
    public B source(InetAddress source) {
        this.source = Objects.requireNonNull(source, "source");
        return self();
    }

    /** Client sockets, 1..the protocol's maximum; default 8. */
    public B sockets(int sockets) {
        this.sockets = (int) requireRange("sockets", sockets, 1, maxSockets);
        return self();
    }

    /** Requests per second over all sockets, 0 = closed loop. */
    public B ratePerSecond(long rate) {
        this.ratePerSecond = requireRange("ratePerSecond", rate, 0, 10_000_000);
        return self();
    }

    /** Outstanding requests per socket (the closed loop's window, the paced run's cap), 1..the protocol's maximum. */
    public B window(int window) {
        this.window = (int) requireRange("window", window, 1, maxWindow);
        return self();
    }

    /** A request unanswered this long is lost, 1..60000 ms; default 1000. */
    public B timeoutMs(long timeoutMs) {
        this.timeoutMs = requireRange("timeoutMs", timeoutMs, 1, 60_000);
        return self();
    }

    /** Stop sending after this long (null = until the generator is told to stop, or closed). */
    public B maxDuration(Duration d) {
        if (d != null && (d.isNegative() || d.isZero())) {
            throw new IllegalArgumentException("maxDuration must be positive: " + d);
        }
        this.maxDuration = d;
        return self();
    }

    /** The settings so far; fails when no target was given. */
    protected LoadShape shape() {
        if (target == null) {
            throw new IllegalStateException("target is required");
        }
        return new LoadShape(target, source, sockets, ratePerSecond, window, timeoutMs, maxDuration);
    }

    /** {@code value}, or a {@link SettingOutOfRange} naming the setting and its range. */
    public static long requireRange(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new SettingOutOfRange(name, value, min, max);
        }
        return value;
    }
}
