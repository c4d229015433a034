package io.mclb.ha.replication;

/**
 * The standby's end of LocalDirector's {@code write standby}: receives the active node's running
 * configuration. The wiring validates it, writes it to the configuration file and reloads; this
 * package does none of that. Called on the replication thread in arrival order: hand slow work
 * (parsing, file I/O, reload) to another thread.
 */
@FunctionalInterface
public interface ConfigReceiver {
    void onConfig(String runningConfig);
}
