package io.mclb.gtp.lb;

import io.mclb.gtp.GtpCause;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Every GTP service metric, declared once (Prometheus names in gtp/README.md):
 * {@code mclb_gtp_causes_total{vserver,version,cause}}, {@code mclb_gtp_notifications_total{vserver,kind,result}},
 * {@code mclb_gtp_ggsn_restarts_total{farm,real}}, {@code mclb_gtp_sessions}, {@code mclb_gtp_teid_collisions_total},
 * {@code mclb_gtp_sgsn_restarts_total{vserver}}, {@code mclb_gtp_sgsn_changes_total{vserver}}, {@code mclb_gtp_gsns{side}}.
 *
 * <p>One instance per virtual server. Cause counters are resolved on first use of a
 * (version, cause) pair and cached in an array indexed by cause, so counting is an array read per
 * answer; concurrent first uses resolve the same counter (registration is idempotent), a benign race.
 */
public final class GtpMetrics {
    public static final String CAUSES = "mclb.gtp.causes";
    public static final String NOTIFICATIONS = "mclb.gtp.notifications";
    public static final String GGSN_RESTARTS = "mclb.gtp.ggsn.restarts";
    public static final String SESSIONS = "mclb.gtp.sessions";
    public static final String TEID_COLLISIONS = "mclb.gtp.teid.collisions";
    /** counter {vserver}: an SGSN's Recovery in a create changed: it restarted. */
    public static final String SGSN_RESTARTS = "mclb.gtp.sgsn.restarts";
    /** counter {vserver}: {@code gtp signalling vip}, an anchored session moved to another SGSN (inter-SGSN update accepted). */
    public static final String SGSN_CHANGES = "mclb.gtp.sgsn.changes";
    /** gauge {side}: GSNs known (sgsn, ggsn), until the GSN idle timer forgets them. */
    public static final String GSNS = "mclb.gtp.gsns";

    private final MeterRegistry registry;
    private final String vserver;
    private final Counter[][] causes = new Counter[3][256];
    private final Counter sgsnRestarts;
    private final Counter sgsnChanges;

    public GtpMetrics(MeterRegistry registry, String vserver) {
        this.registry = registry;
        this.vserver = vserver;
        this.sgsnRestarts = Counter.builder(SGSN_RESTARTS)
                .description("SGSN restarts seen as a change of the Recovery in its creates").tag("vserver", vserver)
                .register(registry);
        this.sgsnChanges = Counter.builder(SGSN_CHANGES)
                .description("Anchored sessions moved to another SGSN by an update the GGSN accepted").tag("vserver", vserver)
                .register(registry);
    }

    public void countSgsnChange() {
        sgsnChanges.increment();
    }

    public void countSgsnRestart() {
        sgsnRestarts.increment();
    }

    /** Counts one answer with {@code cause} (0..255) of GTP {@code version} (0..2). */
    public void countCause(int version, int cause) {
        cause(version, cause).increment();
    }

    /**
     * The "request accepted" cause of every version exists from the start (at 0), so a dashboard's
     * cause panel and an accept-ratio rule of an inspecting virtual server see zeros, not gaps.
     */
    void acceptedCausesFromStart() {
        cause(0, GtpCause.V1_REQUEST_ACCEPTED);
        cause(1, GtpCause.V1_REQUEST_ACCEPTED);
        cause(2, GtpCause.V2_REQUEST_ACCEPTED);
    }

    private Counter cause(int version, int cause) {
        Counter c = causes[version][cause];
        if (c == null) {
            c = Counter.builder(CAUSES).description("Cause values of answers to requests relayed by mclb")
                    .tag("vserver", vserver).tag("version", "v" + version).tag("cause", Integer.toString(cause))
                    .register(registry);
            causes[version][cause] = c;
        }
        return c;
    }

    /** Counts a GGSN notification (per session event: resolves the counter each time). */
    public void countNotification(String kind, String result) {
        Counter.builder(NOTIFICATIONS).description("GGSN-to-mclb notifications by kind and what mclb did")
                .tag("vserver", vserver).tag("kind", kind).tag("result", result).register(registry).increment();
    }

    public static void countRestart(MeterRegistry registry, String farm, String real) {
        restarts(registry, farm, real).increment();
    }

    /** A probed GGSN's restart counter; registered when its echo probe starts, so it exists at 0. */
    static Counter restarts(MeterRegistry registry, String farm, String real) {
        return Counter.builder(GGSN_RESTARTS).description("GGSN restarts seen as a change of the echo Recovery value")
                .tag("farm", farm).tag("real", real).register(registry);
    }
}
