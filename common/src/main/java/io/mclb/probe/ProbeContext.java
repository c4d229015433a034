package io.mclb.probe;

import io.mclb.service.ServiceContext;
import io.netty.channel.EventLoop;

/**
 * What a {@link ProbeCheck} may use: the event loop it runs on (every callback of the check
 * happens there) and the running balancer (sticky table, bindings, farms, registry, clock).
 */
public record ProbeContext(EventLoop loop, ServiceContext service) {
}
