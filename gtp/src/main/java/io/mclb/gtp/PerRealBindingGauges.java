package io.mclb.gtp;

import io.mclb.binding.BindingTable;
import io.mclb.config.VirtualServerConfig;
import io.mclb.farm.RealServer;
import io.mclb.farm.ServerFarm;
import io.mclb.service.ServiceContext;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A gauge per real of the bindings of one kind it holds ({@code mclb_mip_bindings{farm,real}},
 * {@code mclb_asn_msids{farm,real}}), for the reals of the farms a service's virtual servers use.
 * Counting walks the binding table, so one walk serves every real's gauge for a second: a scrape
 * of a million bindings costs one pass, not one per real. Thread-safe.
 */
public final class PerRealBindingGauges {
    private static final long REFRESH_NS = 1_000_000_000L;

    private final String name;
    private final String description;
    private final Supplier<BindingTable<?>> table;
    private final Set<String> registered = ConcurrentHashMap.newKeySet();
    private volatile Map<Long, Integer> counts = Map.of();
    private volatile long countedNs = Long.MIN_VALUE;
    private volatile MeterRegistry registeredOn;

    public PerRealBindingGauges(String name, String description, Supplier<BindingTable<?>> table) {
        this.name = name;
        this.description = description;
        this.table = table;
    }

    /** Registers the gauges of every real of the farms {@code service}'s virtual servers use (idempotent). */
    public void register(ServiceContext ctx, String service) {
        MeterRegistry r = ctx.registry();
        if (r != registeredOn) {
            registered.clear();
            registeredOn = r;
        }
        for (VirtualServerConfig v : ctx.config().vservers().values()) {
            if (!service.equals(v.service())) {
                continue;
            }
            for (String farm : new String[] {v.farm(), v.backupFarm()}) {
                ServerFarm f = farm == null ? null : ctx.farms().get(farm);
                if (f == null) {
                    continue;
                }
                for (RealServer real : f.reals()) {
                    if (registered.add(f.name() + "\u0000" + real.label())) {
                        long id = real.id();
                        Gauge.builder(name, () -> count(ctx, id)).description(description)
                                .tag("farm", f.name()).tag("real", real.label()).register(r);
                    }
                }
            }
        }
    }

    private int count(ServiceContext ctx, long realId) {
        long now = ctx.clock().nanoTime();
        if (now - countedNs >= REFRESH_NS || countedNs == Long.MIN_VALUE) {
            counts = table.get().perReal();
            countedNs = now;
        }
        return counts.getOrDefault(realId, 0);
    }
}
