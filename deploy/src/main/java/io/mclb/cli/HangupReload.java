package io.mclb.cli;

import io.mclb.server.MclbServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What SIGHUP does in {@code mclb run}. The handler is installed before the server starts: the
 * admin listener answers (and systemd's {@code ExecReload} or a script may signal) before
 * {@link MclbServer#start} returns, and a SIGHUP that reached the JVM's own handler then would
 * shut mclb down. A hangup that arrives while the server is starting is kept and applied once it
 * runs, since the file may have changed after it was read.
 */
final class HangupReload {
    private static final Logger LOG = LoggerFactory.getLogger(HangupReload.class);

    private final AtomicReference<MclbServer> running = new AtomicReference<>();
    private final AtomicBoolean pending = new AtomicBoolean();

    /** Called on every SIGHUP (on a thread of its own). */
    void hangup() {
        pending.set(true);
        MclbServer s = running.get();
        // whoever clears the flag reloads: this thread, or started() if it has not looked yet
        if (s != null && pending.getAndSet(false)) {
            reload(s);
        }
    }

    /** Called once the server runs; applies a hangup that came while it was starting. */
    void started(MclbServer server) {
        running.set(server);
        if (pending.getAndSet(false)) {
            reload(server);
        }
    }

    /** True while a hangup waits for the server to start. */
    boolean pending() {
        return pending.get();
    }

    private static void reload(MclbServer server) {
        var r = server.reload();
        if (r.ok()) {
            LOG.info("SIGHUP: configuration reloaded");
        } else {
            LOG.warn("SIGHUP: reload refused, running configuration kept: {}", r.errors());
        }
    }
}
