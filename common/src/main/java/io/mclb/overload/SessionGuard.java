package io.mclb.overload;

import io.mclb.config.VirtualServerConfig;
import io.mclb.metrics.VserverMetrics;
import io.mclb.net.DropReason;
import io.mclb.overload.OverloadLines.SynGuard;
import io.mclb.vserver.VserverSnapshot;

import java.net.InetAddress;

/**
 * The {@code synguard} admission of one relay (one virtual server on one event loop): asked only
 * for a datagram that opens a session (a GTP create, an Access-Request, an accounting Start, a
 * registration, an MS entry, a new plain UDP flow), never for a retransmission or a follow-up.
 *
 * <p>Per loop, with the whole N on each loop: SO_REUSEPORT hashes the 4-tuple, so a client that
 * keeps its source port (a GTP-C peer on 2123, most NASes) always reaches one loop and gets
 * exactly N per interval, however its traffic hashes. A client that spreads its requests over
 * source ports can reach up to every loop, hence at most N times {@code mclb event-loops}. N split
 * over loops would throttle the common single-port client to N/loops; a table shared by loops
 * would put a contended write on every new session. A reload that changes the line starts fresh
 * buckets. Loop-confined.
 */
public final class SessionGuard {
    /** Declared once: {@code mclb_drops_total{reason="client_rate_limited"}}. */
    public static final DropReason CLIENT_RATE_LIMITED = DropReason.of("client_rate_limited");

    private final VserverMetrics metrics;
    private VirtualServerConfig seen;
    private ClientRateLimiter limiter;

    public SessionGuard(VserverMetrics metrics) {
        this.metrics = metrics;
    }

    /** Whether {@code client} may open a session now; false means drop it as {@link #CLIENT_RATE_LIMITED}. */
    public boolean admits(VserverSnapshot s, InetAddress client, long nowNs) {
        if (s.config() != seen) {
            configure(s.config());
        }
        return limiter == null || limiter.admit(client, nowNs);
    }

    private void configure(VirtualServerConfig c) {
        SynGuard g = OverloadSyntax.synGuard(c);
        SynGuard before = seen == null ? SynGuard.OFF : OverloadSyntax.synGuard(seen);
        seen = c;
        if (!g.on()) {
            limiter = null;
        } else if (limiter == null || !g.equals(before)) {
            limiter = new ClientRateLimiter(g.sessions(), g.intervalMs());
            metrics.drop(CLIENT_RATE_LIMITED); // exported at 0 from the start, for alerts
        }
    }
}
