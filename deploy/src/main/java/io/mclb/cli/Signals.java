package io.mclb.cli;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** SIGHUP → reload, as operators expect of a daemon. Uses the JDK's sun.misc.Signal (jdk.unsupported). */
final class Signals {
    private static final Logger LOG = LoggerFactory.getLogger(Signals.class);

    private Signals() {
    }

    @SuppressWarnings("removal")
    static void onHangup(Runnable action) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("HUP"), sig -> {
                Thread t = new Thread(action, "mclb-sighup");
                t.setDaemon(true);
                t.start();
            });
        } catch (IllegalArgumentException e) {
            LOG.warn("SIGHUP cannot be handled on this platform; use 'mclb reload'");
        }
    }
}
