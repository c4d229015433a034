package io.mclb.net;

import io.mclb.time.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
/**
 * Security-relevant input (a wrong shared secret, an unknown client, an unauthenticated hello or
 * DFP message), besides its counter, logged as a warning at most once per source and key per
 * minute: the operator learns which NAS or peer is wrong, never a line per datagram. At most
 * {@link #MAX_SOURCES} sources per key are remembered within a minute, so a spoofed flood cannot
 * flood the log. Thread-safe and lock-free; allocates only to log or to remember a new source.
 */
public final class SecurityLog {
    public static final long PERIOD_NS = 60_000_000_000L;
    static final int MAX_SOURCES = 1024;
    private static final Logger LOG = LoggerFactory.getLogger("io.mclb.security");
    private static final List<Consumer<String>> OBSERVERS = new CopyOnWriteArrayList<>();
    /** Stands for the local socket's peers, which have no address. */
    private static final InetAddress LOCAL = InetAddress.getLoopbackAddress();
    private final NanoClock clock;
    private final ConcurrentHashMap<String, ConcurrentHashMap<InetAddress, AtomicLong>> lastLogged = new ConcurrentHashMap<>();

    public SecurityLog(NanoClock clock) {
        this.clock = clock;
    }

    /**
     * Logs {@code message} with the source address unless this source and key were logged within
     * the minute. A null source is the local admin socket (it has no address).
     */
    public boolean warn(InetAddress source, String key, String message) {
        if (source == null) {
            source = LOCAL;
        }
        long now = clock.nanoTime();
        ConcurrentHashMap<InetAddress, AtomicLong> last = lastLogged.computeIfAbsent(key, k -> new ConcurrentHashMap<>());
        AtomicLong at = last.get(source);
        if (at == null) {
            if (last.size() >= MAX_SOURCES && !last.values().removeIf(t -> now - t.get() >= PERIOD_NS)
                    || last.putIfAbsent(source, new AtomicLong(now)) != null) {
                return false; // too many sources this minute, or another thread logs this one
            }
        } else {
            long prev = at.get();
            if (now - prev < PERIOD_NS || !at.compareAndSet(prev, now)) {
                return false;
            }
        }
        String from = source == LOCAL ? "the local socket" : source.getHostAddress();
        String line = message + " (from " + from + "; logged at most once a minute per source)";
        LOG.warn(line);
        OBSERVERS.forEach(o -> o.accept(line));
        return true;
    }

    /** Tests: every line logged from now on also goes to {@code lines}, until closed. */
    public static AutoCloseable capture(Consumer<String> lines) {
        OBSERVERS.add(lines);
        return () -> OBSERVERS.remove(lines);
    }
}
