package io.mclb.admin;

import io.mclb.metrics.MetricNames;
import io.mclb.net.SecurityLog;
import io.mclb.time.NanoClock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.net.InetAddress;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * Requests and connections the admin plane refused, counted by reason
 * ({@code mclb_admin_refusals_total{reason}}, every reason from the start at 0) and logged at most
 * once per source and reason per minute ({@link SecurityLog}). Thread-safe.
 */
public final class AdminRefusals {
    /** Why: the label is the enum's name in lower case. */
    public enum Reason {
        /** a state-changing call over TCP without {@code Authorization: Bearer} (401) */
        TOKEN_MISSING,
        /** a bearer token that is not the configured one (401) */
        TOKEN_WRONG,
        /** a state-changing call over TCP while no {@code mclb admin token FILE} is configured (403) */
        TOKEN_NOT_CONFIGURED,
        /** headers and body not received within {@code mclb admin timeout} (408) */
        TIMEOUT,
        /** closed to make room past {@code mclb admin max-connections} */
        CONNECTION_LIMIT,
        /** request line, headers or body past the limits (414, 431, 413) */
        TOO_LARGE,
        /** not HTTP/1.x (400) */
        BAD_REQUEST,
        /** a local-socket peer running as another user than mclb's (nor root) */
        LOCAL_PEER;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Map<Reason, Counter> counters = new EnumMap<>(Reason.class);
    private final SecurityLog log;

    public AdminRefusals(MeterRegistry registry, NanoClock clock) {
        for (Reason r : Reason.values()) {
            counters.put(r, Counter.builder(MetricNames.ADMIN_REFUSALS).tag("reason", r.label())
                    .description("admin requests and connections refused, by reason").register(registry));
        }
        this.log = new SecurityLog(clock);
    }

    /** Counts one refusal and logs it, rate-limited, with {@code source} (null: the local socket). */
    public void refuse(Reason reason, InetAddress source, String what) {
        counters.get(reason).increment();
        log.warn(source, "admin-" + reason.label(), "admin: refused " + what + " (" + reason.label() + ")");
    }
}
