package io.mclb.net;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Why a datagram was dropped: the {@code reason} label of {@code mclb_drops_total}. An open set:
 * the engine declares its reasons here, protocol modules declare theirs with {@link #of(String)}
 * once at class-initialisation time. Each reason has a small dense id so that per-virtual-server
 * counters are an array lookup on the data path.
 */
public final class DropReason {
    private static final Map<String, DropReason> BY_LABEL = new ConcurrentHashMap<>();
    private static final List<DropReason> ALL = new ArrayList<>();

    public static final DropReason MALFORMED = of("malformed");
    public static final DropReason OVERSIZED = of("oversized");
    public static final DropReason CLIENT_NOT_ALLOWED = of("client_not_allowed");
    public static final DropReason OUT_OF_SERVICE = of("vserver_out_of_service");
    public static final DropReason NO_REAL_AVAILABLE = of("no_real_available");
    public static final DropReason UNKNOWN_RESPONSE = of("unknown_response");
    public static final DropReason UPSTREAM_UNAVAILABLE = of("upstream_unavailable");
    public static final DropReason ID_SPACE_EXHAUSTED = of("id_space_exhausted");
    public static final DropReason SEND_FAILED = of("send_failed");
    public static final DropReason INTERNAL_ERROR = of("internal_error");
    /** The engine's own reasons, which every virtual server exports from its start (at 0). */
    public static final List<DropReason> ENGINE = List.of(MALFORMED, OVERSIZED, CLIENT_NOT_ALLOWED, OUT_OF_SERVICE,
            NO_REAL_AVAILABLE, UNKNOWN_RESPONSE, UPSTREAM_UNAVAILABLE, ID_SPACE_EXHAUSTED, SEND_FAILED, INTERNAL_ERROR);

    private final String label;
    private final int id;

    private DropReason(String label, int id) {
        this.label = label;
        this.id = id;
    }

    /** The reason with this label, created on first use. Call at start-up, not per packet. */
    public static synchronized DropReason of(String label) {
        DropReason r = BY_LABEL.get(label);
        if (r == null) {
            r = new DropReason(label, ALL.size());
            ALL.add(r);
            BY_LABEL.put(label, r);
        }
        return r;
    }

    public static synchronized List<DropReason> all() {
        return List.copyOf(ALL);
    }

    public String label() {
        return label;
    }

    public int id() {
        return id;
    }

    @Override
    public String toString() {
        return label;
    }
}
