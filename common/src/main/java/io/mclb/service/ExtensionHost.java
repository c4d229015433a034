package io.mclb.service;

import io.mclb.admin.AdminServer;

/**
 * What the running server offers a {@link RuntimeExtension}: admin views and actions, a veto on
 * local configuration changes, and a way to apply a configuration that came from elsewhere (a
 * peer's {@code write standby}). Implemented by deploy's MclbServer.
 */
public interface ExtensionHost {

    /** {@code GET /api/v1/NAME} (JSON, {@code ?format=text} for the table); {@code mclb show NAME}. */
    void addView(String name, AdminServer.View view);

    /** {@code POST /api/v1/NAME}, e.g. {@code failover/active}. */
    void addAction(String name, AdminServer.Action action);

    /** One more condition of {@code GET /readyz} (e.g. HA: active, or standby and in sync). */
    default void addReadiness(AdminServer.Readiness check) {
    }

    /**
     * Asked before every local reload ({@code mclb reload}, SIGHUP, admin POST); a non-null answer
     * refuses the reload with that message and the running configuration stays.
     */
    void addReloadGuard(ReloadGuard guard);

    /**
     * Parses and applies a whole configuration text as if it had been read from the configuration
     * file, bypassing the reload guards (this is how a standby takes its active peer's configuration).
     * The text is not written to the file.
     *
     * @param origin names the source in errors, e.g. "peer 10.99.0.2"
     */
    AdminServer.ReloadResult applyConfig(String origin, String text);

    /** A veto on local configuration changes. */
    @FunctionalInterface
    interface ReloadGuard {
        /** @return null to allow the reload, or why it is refused */
        String refuseReload();
    }
}
