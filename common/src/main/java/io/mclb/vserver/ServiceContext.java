package io.mclb.vserver;

import io.mclb.config.MclbConfig;
import io.mclb.farm.RealServer;
import io.mclb.farm.ServerFarm;
import io.mclb.sticky.StickyTable;
import io.mclb.time.NanoClock;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.EventLoopGroup;

import java.util.Map;

/**
 * What the running balancer offers a protocol module beyond its relays: the current
 * configuration (data directory, the module's extension lines), the shared sticky table, farms
 * and reals (for probes and purges), the event loops and the meter registry.
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

    /**
     * Values replicated to the HA standby (e.g. GTP Recovery). The running balancer returns its one
     * instance; this default (test fakes) returns a fresh unattached one, so publishing goes nowhere.
     */
    default io.mclb.runtime.ReplicatedValues replicatedValues() {
        return new io.mclb.runtime.ReplicatedValues();
    }
}
