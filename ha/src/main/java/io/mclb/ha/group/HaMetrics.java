package io.mclb.ha.group;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every HA group metric, declared once (names are a contract: integration tests assert them).
 * A configured group's series exist from its start, at zero, so dashboards and alert rules see
 * zeros rather than gaps; only {@link #TRANSITIONS} appears with the first change (it has one
 * series per state reached).
 */
public final class HaMetrics {
    /** 1 for the group's current state, 0 for the others: {@code group}, {@code state}. */
    public static final String STATE = "mclb_ha_state";
    /** State changes: {@code group}, {@code to}. */
    public static final String TRANSITIONS = "mclb_ha_transitions_total";
    /** Hellos refused: {@code reason} = malformed, bad_auth, unknown_peer, replay, unknown_group. */
    public static final String HELLOS_REFUSED = "mclb_ha_hellos_refused_total";
    /** Hellos accepted: {@code group}. */
    public static final String HELLOS_RECEIVED = "mclb_ha_hellos_received_total";
    /** LocalDirector's view, 1 for the current one: {@code group}, {@code state} = Active, Standby, Failed. */
    public static final String FAILOVER_STATE = "mclb_ha_failover_state";
    /** Takeovers withheld by the split-brain rules: {@code group}, {@code reason} = connectivity, vip_answers. */
    public static final String TAKEOVERS_WITHHELD = "mclb_ha_takeovers_withheld_total";
    /** {@code reason} of {@link #TAKEOVERS_WITHHELD}: the peer reported a better connectivity score. */
    static final String WITHHELD_CONNECTIVITY = "connectivity";
    /** {@code reason} of {@link #TAKEOVERS_WITHHELD}: the virtual address still answers. */
    static final String WITHHELD_VIP_ANSWERS = "vip_answers";

    private final MeterRegistry registry;
    private final Map<HelloCodec.Refusal, Counter> refused = new EnumMap<>(HelloCodec.Refusal.class);
    private final Map<String, Counter> received = new ConcurrentHashMap<>();
    private final Map<String, Counter> withheld = new ConcurrentHashMap<>();

    public HaMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (HelloCodec.Refusal r : HelloCodec.Refusal.values()) {
            refused.put(r, Counter.builder(HELLOS_REFUSED).description("HA hellos refused").tag("reason", r.label)
                    .register(registry));
        }
    }

    void registerState(StandbyGroup g) {
        String group = g.config().name();
        for (HsrpState s : HsrpState.values()) {
            Gauge.builder(STATE, g, x -> x.state() == s ? 1 : 0).description("HA group state (1 = current)")
                    .tag("group", group).tag("state", s.label()).register(registry);
        }
        for (String s : List.of("Active", "Standby", "Failed")) {
            Gauge.builder(FAILOVER_STATE, g, x -> x.failoverState().equals(s) ? 1 : 0)
                    .description("HA failover state as LocalDirector names it (1 = current)")
                    .tag("group", group).tag("state", s).register(registry);
        }
        receivedCounter(group);
        for (String reason : List.of(WITHHELD_CONNECTIVITY, WITHHELD_VIP_ANSWERS)) {
            withheldCounter(group, reason);
        }
    }

    void transition(String group, HsrpState to) {
        Counter.builder(TRANSITIONS).description("HA group state changes").tag("group", group).tag("to", to.label())
                .register(registry).increment();
    }

    void refused(HelloCodec.Refusal r) {
        refused.get(r).increment();
    }

    void received(String group) {
        receivedCounter(group).increment();
    }

    void withheld(String group, String reason) {
        withheldCounter(group, reason).increment();
    }

    private Counter receivedCounter(String group) {
        return received.computeIfAbsent(group, g -> Counter.builder(HELLOS_RECEIVED).description("HA hellos accepted")
                .tag("group", g).register(registry));
    }

    private Counter withheldCounter(String group, String reason) {
        return withheld.computeIfAbsent(group + '\n' + reason, k -> Counter.builder(TAKEOVERS_WITHHELD)
                .description("Takeovers withheld by the split-brain rules").tag("group", group).tag("reason", reason)
                .register(registry));
    }
}
