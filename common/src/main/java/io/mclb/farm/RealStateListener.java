package io.mclb.farm;

/**
 * Hears every state transition of a {@link RealServer} exactly once, on the thread that caused it
 * (an event loop, the config thread or a probe). Must be quick and must not throw; it is how
 * {@code failaction purge}, HA replication and metrics learn that a real failed or came back.
 * Load-driven states ({@link RealState#MAXCONNS}, {@link RealState#MAXCLIENTS}) are derived per
 * request and are not reported.
 */
@FunctionalInterface
public interface RealStateListener {
    void onTransition(RealServer real, RealState from, RealState to, String reason);

    RealStateListener NONE = (r, f, t, why) -> {
    };
}
