package io.mclb.radius.lb;

import io.mclb.radius.codec.RadiusCodes;
import io.mclb.vserver.VirtualServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code mclb_radius_responses_total{vserver,code}}: responses sent to NASes (forwarded or local),
 * by code name. One array per inspector: a code's counter is resolved once, at start for the
 * usual answers, on its first use for the others.
 */
final class ResponseCounters {
    static final String NAME = "mclb.radius.responses";

    private final MeterRegistry registry;
    private final VirtualServer vs;
    private final Counter[] byCode = new Counter[256];

    ResponseCounters(MeterRegistry registry, VirtualServer vs) {
        this.registry = registry;
        this.vs = vs;
        // the answers of auth and accounting exist from the start (at 0): dashboards and rules see zeros, not gaps
        for (int code : new int[] {RadiusCodes.ACCESS_ACCEPT, RadiusCodes.ACCESS_REJECT, RadiusCodes.ACCESS_CHALLENGE,
                RadiusCodes.ACCOUNTING_RESPONSE}) {
            counter(code);
        }
    }

    void count(int code) {
        counter(code).increment();
    }

    private Counter counter(int code) {
        Counter c = byCode[code & 0xff];
        if (c == null) {
            c = vs.metrics().keep(Counter.builder(NAME).description("RADIUS responses sent to clients")
                    .tag("vserver", vs.name()).tag("code", RadiusCodes.name(code)).register(registry));
            byCode[code & 0xff] = c;
        }
        return c;
    }
}
