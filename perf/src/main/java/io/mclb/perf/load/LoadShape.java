package io.mclb.perf.load;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * What a {@link LoadBuilder} held when its generator was built: later builder changes do not leak in.
 *
 * @param maxDuration null = no end of its own
 */
public record LoadShape(InetSocketAddress target, InetAddress source, int sockets, long ratePerSecond, int window,
                        long timeoutMs, Duration maxDuration) {

    /** The driver these settings run on, with the protocol's snapshot. */
    public <F extends ClientFlow, S extends LoadProgress> LoadDriver<F, S> driver(
            Supplier<S> snapshotter, S empty) {
        return new LoadDriver<>(ratePerSecond, window, timeoutMs, maxDuration, snapshotter, empty);
    }

    /** How the start log describes the pace: "N UNIT/s" or the closed loop's window. */
    public String pace(String unit) {
        return ratePerSecond > 0 ? ratePerSecond + " " + unit + "/s" : "closed loop, window " + window;
    }
}
