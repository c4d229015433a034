package io.mclb.service;

import io.mclb.sticky.StickyKind;
import io.mclb.vserver.VirtualServer;

import java.util.List;

/**
 * What a protocol module (gtp, radius) gives the engine, found with {@link java.util.ServiceLoader}
 * ({@code META-INF/services/io.mclb.service.ServiceModule}): its configuration lines, the
 * inspector the engine runs on each event loop for a virtual server with one of its
 * {@code service} keywords, and the sticky kinds it keys entries by. The engine builds and owns
 * everything else (listeners, relays, transactions, the choice of a real, probes, metrics).
 */
public interface ServiceModule {

    /** The module's configuration lines and rules; its {@link ConfigSyntax#services()} are the keywords served. */
    ConfigSyntax syntax();

    default List<String> services() {
        return syntax().services();
    }

    /**
     * The inspector of one event loop for {@code vs}; called once per loop when the listeners
     * start, after {@link #start}. Its {@link ServiceInspector#shape()} (id width, sockets,
     * request timeout) is read then and fixed for the life of those listeners.
     */
    ServiceInspector<?> newInspector(VirtualServer vs);

    /** Probe types the module provides (e.g. {@code gtp-echo}), beside those found with ServiceLoader. */
    default List<ProbeFactory> probeTypes() {
        return List.of();
    }

    /** Sticky kinds the module declares (so their {@code mclb_sticky_entries} series exist from start). */
    default List<StickyKind> stickyKinds() {
        return List.of();
    }

    /**
     * Called once the runtime is up, and again after every reload (with the new configuration in
     * {@code ctx.config()}), before listeners of new virtual servers start: read the module's
     * records, open its persisted state. Must be idempotent.
     */
    default void start(ServiceContext ctx) throws Exception {
    }

    /**
     * A real changed state (every transition {@link io.mclb.farm.RealStateListener} reports, e.g.
     * to FAILED), so a module can act on its own per-real state ({@code failaction asn purge}).
     * Called on the thread that caused it (an event loop, a probe, the config thread): must be
     * quick and must not throw; a walk over many entries belongs on the module's own executor.
     */
    default void realTransition(io.mclb.farm.RealServer real, io.mclb.farm.RealState from,
                                io.mclb.farm.RealState to) {
    }

    /** Called when the runtime closes: stop timers, flush persisted state. */
    /**
     * The {@code show} views this module adds ({@code GET /api/v1/NAME}, {@code mclb show NAME
     * ...}), e.g. {@code gtp} for {@code show gtp gsn}. Registered once when the admin listener
     * starts; a view reads the module's live state.
     */
    default java.util.Map<String, io.mclb.admin.AdminServer.View> views() {
        return java.util.Map.of();
    }

    default void stop() {
    }
}
