package io.mclb.vserver;

import io.mclb.config.ConfigSyntax;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoop;

import java.util.List;

/**
 * What a protocol module (gtp, radius) gives the engine, found with {@link java.util.ServiceLoader}:
 * its configuration lines and, for a virtual server with one of its {@code service} keywords, the
 * relay each event loop runs (typically an {@link io.mclb.transaction.TransactionRelay} around the
 * module's {@link io.mclb.transaction.ServiceInspector}).
 */
public interface ServiceFactory {

    /** The module's configuration lines and rules; its {@link ConfigSyntax#services()} are the keywords served. */
    ConfigSyntax syntax();

    /** The relay of one event loop for {@code vs}; called once per loop when the listeners start. */
    ChannelHandler newRelay(VirtualServer vs, EventLoop loop);

    default List<String> services() {
        return syntax().services();
    }

    /**
     * Called once the runtime is up, and again after every reload (with the new configuration in
     * {@code ctx.config()}), before listeners of new virtual servers start: read the module's
     * global lines, open its persisted state, start or adjust its probes. Must be idempotent.
     */
    default void start(ServiceContext ctx) throws Exception {
    }

    /** Called when the runtime closes: stop probes and timers, flush persisted state. */
    default void stop() {
    }
}
