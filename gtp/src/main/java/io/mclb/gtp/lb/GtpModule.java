package io.mclb.gtp.lb;

import io.mclb.binding.BindingTable;
import io.mclb.sticky.StickyChangeListener;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyKind;
import io.mclb.sticky.StickyTable;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.concurrent.ConcurrentHashMap;

/**
 * State the GTP module shares between its virtual servers, event loops and probes: the session
 * table (the runtime's binding table of {@link GtpSession#KIND}), mclb's own Recovery value, the
 * metrics per virtual server and the CAC-notification budget per IMSI. Thread-safe: volatile
 * fields and concurrent maps; written per session event, read per datagram.
 */
public final class GtpModule {
    /** IMSI stickiness (all GTP versions share it: the same 8 raw TBCD octets). */
    public static final StickyKind IMSI = StickyKind.of(2, "gtp-imsi", StickyKind.Format.TBCD);
    /** WiMAX ASN MSID stickiness (the ASN gateway service of this module). */
    public static final StickyKind ASN_MSID = StickyKind.of(6, "asn-msid", StickyKind.Format.TEXT);

    private final ConcurrentHashMap<String, GtpMetrics> metrics = new ConcurrentHashMap<>();
    /** CAC reassignments per IMSI raw key: {count, window start ns}; entries age with the window. */
    private final ConcurrentHashMap<Long, long[]> cacBudget = new ConcurrentHashMap<>();
    /** mclb's restart counter, -1 until {@link GtpServiceModule#start} loaded it. */
    private volatile int recovery = -1;
    private volatile BindingTable<GtpSession> sessions = new BindingTable<>(GtpSession.KIND);
    private final GsnTable gsns = new GsnTable();
    private final GtpTeidAllocator teids = new GtpTeidAllocator(new java.security.SecureRandom().nextInt());

    /** The TEIDs mclb gives SGSNs under {@code gtp signalling vip}. */
    GtpTeidAllocator teids() {
        return teids;
    }

    /** The SGSNs and GGSNs seen, with their Recovery ({@code show gtp gsn}). */
    GsnTable gsns() {
        return gsns;
    }

    /** The sessions established through mclb (the runtime's table once started). */
    public BindingTable<GtpSession> sessions() {
        return sessions;
    }

    void sessions(BindingTable<GtpSession> table) {
        this.sessions = table;
    }

    /** The Recovery value mclb sends in its Echo Responses (0 before start). */
    public int recovery() {
        int r = recovery;
        return r < 0 ? 0 : r;
    }

    void recovery(int value) {
        this.recovery = value & 0xFF;
    }

    /** The metrics of one virtual server (created on first use). */
    GtpMetrics metrics(String vserver, MeterRegistry r) {
        return metrics.computeIfAbsent(vserver, v -> new GtpMetrics(r, v));
    }

    /**
     * Whether a CAC failure of this IMSI may still move it: at most {@code max} within
     * {@code windowNs}, counted from the first one of the window.
     */
    boolean takeCac(long imsiRaw, int max, long windowNs, long nowNs) {
        boolean[] ok = new boolean[1];
        cacBudget.compute(imsiRaw, (k, v) -> {
            if (v == null || nowNs - v[1] >= windowNs) {
                v = new long[] {0, nowNs};
            }
            if (v[0] < max) {
                v[0]++;
                ok[0] = true;
            }
            return v;
        });
        return ok[0];
    }

    /** Drops CAC windows that ended. */
    void expireCac(long nowNs, long windowNs) {
        cacBudget.values().removeIf(v -> nowNs - v[1] >= windowNs);
    }

    /** Removes the IMSI sticky entry of {@code imsiRaw} in {@code group}. */
    static boolean unstick(StickyTable table, int group, long imsiRaw) {
        byte[] id = new byte[8];
        GtpInspector.putLong(id, imsiRaw);
        return table.remove(new StickyKey().set(IMSI, group, id), StickyChangeListener.RemoveReason.DELETED);
    }
}
