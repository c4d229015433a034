package io.mclb.service;


/**
 * A module that runs beside the balancer rather than inside a virtual server: the HA group
 * (io.mclb.ha), sticky and configuration replication. Found with {@link java.util.ServiceLoader}
 * by the wiring in deploy ({@code META-INF/services/io.mclb.runtime.RuntimeExtension}).
 *
 * <p>Life cycle, in this order: {@link #syntax()} and {@link #gate()} are asked once before the
 * runtime starts (the gate must exist before virtual servers bind); {@link #start} runs once after
 * the runtime and the admin listener are up; {@link #reloaded} after each applied configuration
 * (local reload or one applied through {@link ExtensionHost#applyConfig}); {@link #stop} once, before
 * the runtime closes. The methods are called from one thread at a time; an extension's own threads
 * are its business.
 */
public interface RuntimeExtension {

    /** Short name for logs, e.g. "ha-group", "ha-replication". */
    String name();

    /** The configuration lines this extension owns, or null when it reads those of another. */
    ConfigSyntax syntax();

    /**
     * Whether {@code inservice standby NAME} virtual servers serve now; null when this extension
     * has no say. With several gates a group serves only when every gate agrees.
     */
    default ServingGate gate() {
        return null;
    }

    /** Starts the extension against the running balancer; {@code host} registers views, actions and guards. */
    void start(ServiceContext ctx, ExtensionHost host) throws Exception;

    /** The configuration changed (already applied; {@code ctx.config()} is the new one). */
    default void reloaded(ServiceContext ctx) throws Exception {
    }

    /** Stops threads and sockets; must not throw. */
    void stop();

    /**
     * The coming {@link #stop} is an orderly stop that must not hand the active role to a peer
     * ({@code mclb stop --no-handover}); called just before it.
     */
    default void noHandoverOnStop() {
    }
}
