package io.mclb.overload;

/** The records of the overload-control lines ({@link OverloadSyntax}). */
public final class OverloadLines {
    private OverloadLines() {
    }

    /**
     * {@code synguard N [INTERVAL]} in a virtual server: at most {@code sessions} new sessions per
     * client address per {@code intervalMs}, on each event loop the client reaches. 0 sessions is
     * IOS's "off".
     */
    public record SynGuard(long sessions, int intervalMs) {
        public static final int DEFAULT_INTERVAL_MS = 100;
        public static final SynGuard OFF = new SynGuard(0, DEFAULT_INTERVAL_MS);

        public boolean on() {
            return sessions > 0;
        }

        /** As {@code show vservers detail} prints it: {@code 20/100ms}, or {@code -}. */
        public String text() {
            return on() ? sessions + "/" + intervalMs + "ms" : "-";
        }
    }

    /** {@code mclb max-transactions N}: transactions tracked per event loop, over all its virtual servers. */
    public record MaxTransactions(int perLoop) {
        /**
         * 2^18: four GGSNs' worth of GTP's 16-bit sequence space waiting on one loop (a path holds at
         * most 65,536 requests in flight), or 64 AAA servers' 4,096 RADIUS ids (16 sockets x 256); at
         * roughly 200 octets a transaction with its map entries, about 50 MB of heap per loop.
         */
        public static final int DEFAULT_PER_LOOP = 262_144;
        public static final MaxTransactions DEFAULT = new MaxTransactions(DEFAULT_PER_LOOP);
    }
}
