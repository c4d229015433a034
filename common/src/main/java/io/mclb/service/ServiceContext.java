package io.mclb.service;

import io.mclb.binding.Bindings;
import io.mclb.config.MclbConfig;
import io.mclb.farm.RealServer;
import io.mclb.farm.ServerFarm;
import io.mclb.sticky.StickyTable;
import io.mclb.time.NanoClock;
import io.mclb.vserver.VirtualServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.EventLoopGroup;

import java.util.Map;

/**
 * What the running balancer offers a protocol module beyond its inspectors: the current
 * configuration (data directory, the module's records), the shared sticky table and binding
 * tables, farms and reals (for probes and purges), the event loops and the meter registry.
 */
public interface ServiceContext {
    MclbConfig config();

    StickyTable stickyTable();

    NanoClock clock();

    MeterRegistry registry();

    EventLoopGroup loops();

    /** Farms by name, in configuration order. */
    Map<String, ServerFarm> farms();

    /** Virtual servers by name, in configuration order. */
    Map<String, VirtualServer> vservers();

    RealServer realById(long realId);

    /** The per-subscriber binding tables (GTP sessions, Mobile IP bindings, ASN MSIDs), aged by the runtime. */
    Bindings bindings();

    /**
     * Values replicated to the HA standby (e.g. GTP Recovery). The running balancer returns its one
     * instance; this default (test fakes) returns a fresh unattached one, so publishing goes nowhere.
     */
    default io.mclb.runtime.ReplicatedValues replicatedValues() {
        return new io.mclb.runtime.ReplicatedValues();
    }
}
