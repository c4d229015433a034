package io.mclb.ha.replication;

import io.mclb.binding.Bindings;
import io.mclb.farm.RealServer;
import io.mclb.time.NanoClock;

import java.util.function.LongFunction;

/**
 * What the replicator needs to carry the runtime's binding tables: the tables, the reals by id
 * (the standby resolves a binding's farm, address and port to one of its own reals) and the clock
 * the tables' expiries are read on.
 */
public record ReplicatedBindings(Bindings bindings, LongFunction<RealServer> realById, NanoClock clock) {
}
