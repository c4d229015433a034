package io.mclb.gtp.mip;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.util.collection.LongObjectHashMap;

/**
 * The Home Agent Director's reply counter, declared once: {@code mclb_mip_replies_total{vserver,real,code}}
 * (gtp/README.md). One instance per inspector (event loop): the counters are resolved on first use
 * of a (real, code) pair and cached per real in an array indexed by code, so counting a reply is a
 * primitive map read; two loops resolving the same counter get the same meter (registration is
 * idempotent).
 */
final class MipMetrics {
    static final String REPLIES = "mclb.mip.replies";
    static final String BINDINGS = "mclb.mip.bindings";

    private final MeterRegistry registry;
    private final String vserver;
    private final LongObjectHashMap<Counter[]> byReal = new LongObjectHashMap<>();

    MipMetrics(MeterRegistry registry, String vserver) {
        this.registry = registry;
        this.vserver = vserver;
    }

    void countReply(long realId, String realLabel, int code) {
        Counter[] codes = byReal.get(realId);
        if (codes == null) {
            codes = new Counter[256];
            byReal.put(realId, codes);
        }
        Counter c = codes[code];
        if (c == null) {
            c = Counter.builder(REPLIES).description("Mobile IP registration replies from home agents, by code")
                    .tag("vserver", vserver).tag("real", realLabel).tag("code", Integer.toString(code))
                    .register(registry);
            codes[code] = c;
        }
        c.increment();
    }
}
