package io.mclb.gtp.lb;

/**
 * What a GTP transaction carries from its request to the answer: a create's subscriber (to open its
 * session when accepted), the session a delete ends, or (under {@code gtp signalling vip}) the
 * anchored session a follow-up goes through; other requests carry nothing (null). Confined to the
 * transaction's event loop.
 */
sealed interface GtpTx permits GtpTx.Create, GtpTx.Follow, GtpSession {

    /**
     * A create (or a v1 secondary create) of {@code imsiRaw} with NSAPI/EBI {@code nsapi}. Under
     * {@code gtp signalling vip}, {@code via} is the anchored session a secondary create is addressed
     * through (its TEID is mapped back), and {@link #opened} the session the accepted answer opened,
     * whose TEID {@code toClient} gives the SGSN.
     */
    final class Create implements GtpTx {
        private final long imsiRaw;
        private final int nsapi;
        private final GtpSession via;
        private GtpSession opened;

        Create(long imsiRaw, int nsapi) {
            this(imsiRaw, nsapi, null);
        }

        Create(long imsiRaw, int nsapi, GtpSession via) {
            this.imsiRaw = imsiRaw;
            this.nsapi = nsapi;
            this.via = via;
        }

        long imsiRaw() {
            return imsiRaw;
        }

        int nsapi() {
            return nsapi;
        }

        GtpSession via() {
            return via;
        }

        GtpSession opened() {
            return opened;
        }

        void opened(GtpSession s) {
            this.opened = s;
        }
    }

    /**
     * A follow-up through the anchored session {@code via} ({@code gtp signalling vip}): its header
     * TEID is mapped back to the GGSN's, and the answer's control identity to the virtual address.
     * {@code ends} is the session an accepted delete closes, null for other requests.
     */
    record Follow(GtpSession via, GtpSession ends) implements GtpTx {
    }
}
