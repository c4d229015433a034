package io.mclb.net;

import io.mclb.time.NanoClock;
import org.slf4j.Logger;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Security-relevant input logged with its source, at most once per source address and key per
 * minute: the operator learns which peer is wrong (a NAS with a bad secret, a scanner on the admin
 * port) without a flood filling the disk. Counters stay the place for volume; this says who. A
 * line that follows a quiet minute says how many were suppressed before it.
 *
 * <p>Thread-safe, lock-free; callable from any thread. At most {@link #MAX_SOURCES} (source, key)
 * pairs are remembered: past that, expired ones are dropped, and while the map is still full new
 * pairs are logged without memory (a spoofed-source flood cannot grow the heap).
 */
public final class SecurityLog {
    static final int MAX_SOURCES = 4096;
    private static final long INTERVAL_NS = TimeUnit.MINUTES.toNanos(1);

    private record Source(InetAddress address, String key) {
    }

    /** Per pair: when it was last logged, and how many were suppressed since. */
    private static final class Window {
        final long loggedNs;
        final AtomicLong suppressed = new AtomicLong();

        Window(long loggedNs) {
            this.loggedNs = loggedNs;
        }
    }

    private final Logger log;
    private final NanoClock clock;
    private final ConcurrentHashMap<Source, Window> windows = new ConcurrentHashMap<>();

    public SecurityLog(Logger log, NanoClock clock) {
        this.log = log;
        this.clock = clock;
    }

    /**
     * Logs {@code message} at WARN with {@code source}, unless this source logged {@code key} in
     * the last minute. {@code key} names the kind of event (e.g. {@code admin-token}), so one source
     * is reported once per kind; the message must never hold the secret itself.
     */
    public void warn(InetAddress source, String key, String message) {
        long now = clock.nanoTime();
        Source s = new Source(source, key);
        Window w = windows.get(s);
        if (w != null && now - w.loggedNs < INTERVAL_NS) {
            w.suppressed.incrementAndGet();
            return;
        }
        if (w == null && windows.size() >= MAX_SOURCES) {
            windows.values().removeIf(x -> now - x.loggedNs >= INTERVAL_NS);
        }
        Window next = new Window(now);
        boolean replaced = w == null ? windows.size() < MAX_SOURCES && windows.putIfAbsent(s, next) == null
                : windows.replace(s, w, next);
        if (w != null && !replaced) {
            // another thread logged this pair just now
            windows.getOrDefault(s, next).suppressed.incrementAndGet();
            return;
        }
        long before = w == null ? 0 : w.suppressed.get();
        String from = source == null ? "unknown" : source.getHostAddress();
        if (before > 0) {
            log.warn("{} from {} ({} more from this source since its last line, not logged)", message, from, before);
        } else {
            log.warn("{} from {}", message, from);
        }
    }
}
