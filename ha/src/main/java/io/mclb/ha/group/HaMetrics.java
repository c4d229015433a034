package io.mclb.ha.group;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/** Every HA group metric, declared once (names are a contract: integration tests assert them). */
public final class HaMetrics {
    /** 1 for the group's current state, 0 for the others: {@code group}, {@code state}. */
    public static final String STATE = "mclb_ha_state";
    /** State changes: {@code group}, {@code to}. */
    public static final String TRANSITIONS = "mclb_ha_transitions_total";
    /** Hellos refused: {@code reason} = malformed, bad_auth, unknown_peer, replay, unknown_group. */
    public static final String HELLOS_REFUSED = "mclb_ha_hellos_refused_total";
    /** Hellos accepted: {@code group}. */
    public static final String HELLOS_RECEIVED = "mclb_ha_hellos_received_total";
    /** Takeovers withheld by the split-brain rules: {@code group}, {@code reason} = connectivity, vip_answers. */
    public static final String TAKEOVERS_WITHHELD = "mclb_ha_takeovers_withheld_total";

    private final MeterRegistry registry;

    public HaMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void registerState(StandbyGroup g) {
        for (HsrpState s : HsrpState.values()) {
            Gauge.builder(STATE, g, x -> x.state() == s ? 1 : 0).description("HA group state (1 = current)")
                    .tag("group", g.config().name()).tag("state", s.label()).register(registry);
        }
    }

    void transition(String group, HsrpState to) {
        Counter.builder(TRANSITIONS).description("HA group state changes").tag("group", group).tag("to", to.label())
                .register(registry).increment();
    }

    void refused(HelloCodec.Refusal r) {
        Counter.builder(HELLOS_REFUSED).description("HA hellos refused").tag("reason", r.label).register(registry)
                .increment();
    }

    void received(String group) {
        Counter.builder(HELLOS_RECEIVED).description("HA hellos accepted").tag("group", group).register(registry)
                .increment();
    }

    void withheld(String group, String reason) {
        Counter.builder(TAKEOVERS_WITHHELD).description("Takeovers withheld by the split-brain rules")
                .tag("group", group).tag("reason", reason).register(registry).increment();
    }
}
