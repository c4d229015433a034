package io.mclb.probe;

import io.mclb.service.ServiceContext;
import io.netty.channel.EventLoop;

/**
 * What a {@link ProbeCheck} may use: the event loop it runs on (every callback of the check
 * happens there), the running balancer (sticky table, bindings, farms, registry, clock) and the
 * name of the probe it runs for (checks of one probe on one loop may share a socket).
 */
public record ProbeContext(EventLoop loop, ServiceContext service, String probe) {
}
