package io.mclb.cli;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** SIGHUP → reload, as operators expect of a daemon. Uses the JDK's sun.misc.Signal (jdk.unsupported). */
final class Signals {
    private static final Logger LOG = LoggerFactory.getLogger(Signals.class);

    private Signals() {
    }

    /**
     * Installs {@code action} for SIGHUP. A SIGHUP ignored when the process started ({@code nohup},
     * or a supervisor that sets SIG_IGN) stays ignored: the JVM does not install a handler for a
     * shutdown signal it inherits ignored, and says so only by handing back SIG_IGN. Without the
     * warning an operator's {@code kill -HUP} would do nothing, silently.
     */
    @SuppressWarnings("removal")
    static void onHangup(Runnable action) {
        try {
            sun.misc.SignalHandler previous = sun.misc.Signal.handle(new sun.misc.Signal("HUP"), sig -> {
                Thread t = new Thread(action, "mclb-sighup");
                t.setDaemon(true);
                t.start();
            });
            if (previous == sun.misc.SignalHandler.SIG_IGN) {
                LOG.warn("SIGHUP is ignored in this process (started under nohup?): it will not reload the "
                        + "configuration; use 'mclb reload', or start mclb without nohup (systemd, setsid)");
            }
        } catch (IllegalArgumentException e) {
            LOG.warn("SIGHUP cannot be handled on this platform; use 'mclb reload'");
        }
    }
}
