package io.mclb.gtp.lb;

/**
 * What a GTP transaction carries from its request to the answer: a create's subscriber (to open its
 * session when accepted), the session and context a delete ends ({@link End}), or (under {@code gtp signalling vip}) the
 * anchored session a follow-up goes through; other requests carry nothing (null). Confined to the
 * transaction's event loop.
 */
sealed interface GtpTx permits GtpTx.Create, GtpTx.End, GtpTx.Follow, GtpTx.FromGgsn {

    /**
     * A create (or a v1 secondary create) of {@code imsiRaw} with NSAPI/EBI {@code nsapi}. Under
     * {@code gtp signalling vip}, {@code via} is the anchored session a secondary create is addressed
     * through (its TEID is mapped back), and {@link #opened} the session the accepted answer opened,
     * whose TEID {@code toClient} gives the SGSN.
     *
     * <p>Made for one transaction only, so its inspector reuses it ({@link GtpTxPool}) once the
     * engine retires it: {@link #reset} sets every field.
     */
    final class Create implements GtpTx {
        private long imsiRaw;
        private int nsapi;
        private GtpSession via;
        private GtpSession opened;
        /** The SGSN side ({@link #anchorSgsn}): mclb's TEID given to the GGSN, the SGSN's own, its address. */
        private int mclbTeid;
        private int sgsnTeid;
        private byte[] sgsnAddress;
        /** In its inspector's pool: a second retire of the same object must not put it there twice. */
        boolean pooled;

        Create(long imsiRaw, int nsapi) {
            this(imsiRaw, nsapi, null);
        }

        Create(long imsiRaw, int nsapi, GtpSession via) {
            reset(imsiRaw, nsapi, via);
        }

        /** This object as a new create's state: nothing of an earlier transaction's stays. */
        Create reset(long imsiRaw, int nsapi, GtpSession via) {
            this.imsiRaw = imsiRaw;
            this.nsapi = nsapi;
            this.via = via;
            this.opened = null;
            this.mclbTeid = 0;
            this.sgsnTeid = 0;
            this.sgsnAddress = null;
            return this;
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

        /**
         * Its one reader ({@code GtpInspector.anchoredOf}) wants an anchored session, or with none
         * falls back to {@link #via}: a session that is not anchored is kept only when {@code via}
         * is set, so that the fallback answers as before. A primary create renewing its session
         * (the steady state) so stores no reference into this pooled, old object.
         */
        void opened(GtpSession s) {
            if (via != null || s.anchored()) {
                this.opened = s;
            }
        }

        /**
         * {@code gtp signalling vip}: the GGSN is given {@code mclbTeid} and the virtual address in
         * place of the SGSN's control TEID {@code sgsnTeid} and signalling address {@code sgsnAddress}.
         */
        void anchorSgsn(int mclbTeid, int sgsnTeid, byte[] sgsnAddress) {
            this.mclbTeid = mclbTeid;
            this.sgsnTeid = sgsnTeid;
            this.sgsnAddress = sgsnAddress;
        }

        /** mclb's TEID for this create's session, 0 when the SGSN side is not anchored. */
        int mclbTeid() {
            return mclbTeid;
        }

        int sgsnTeid() {
            return sgsnTeid;
        }

        byte[] sgsnAddress() {
            return sgsnAddress;
        }
    }

    /**
     * A delete of a session that is not anchored: the session and the {@link
     * io.mclb.binding.Binding#generation() generation} of the context the SGSN addressed when the
     * delete came. The accepted answer ends the session only if it still stands for that context
     * ({@link io.mclb.binding.BindingTable#close(io.mclb.binding.Binding, int)}): a subscriber that
     * re-created meanwhile, which renewed the same object in place, keeps its new context.
     *
     * <p>Made for one transaction only, reused like {@link Create} ({@link GtpTxPool}).
     */
    final class End implements GtpTx {
        private GtpSession session;
        private int generation;
        /** In its inspector's pool: a second retire of the same object must not put it there twice. */
        boolean pooled;

        End reset(GtpSession session, int generation) {
            this.session = session;
            this.generation = generation;
            return this;
        }

        GtpSession session() {
            return session;
        }

        int generation() {
            return generation;
        }
    }

    /**
     * A follow-up through the anchored session {@code via} ({@code gtp signalling vip}): its header
     * TEID is mapped back to the GGSN's, and the answer's control identity to the virtual address.
     * {@code ends} is the session an accepted delete closes, null for other requests; {@code moveTo}
     * the new SGSN side an SGSN update from another SGSN names (inter-SGSN routing area update),
     * which the session takes when the GGSN accepts it, else null.
     */
    record Follow(GtpSession via, GtpSession ends, GtpSession.SgsnSide moveTo) implements GtpTx {
        Follow(GtpSession via, GtpSession ends) {
            this(via, ends, null);
        }
    }

    /**
     * A request the GGSN of the anchored session {@code via} sent to the virtual address for the
     * SGSN: relayed with the SGSN's own TEID, its answer with the GGSN's. {@code ends} is the
     * session an accepted delete from the GGSN closes, null for other requests.
     */
    record FromGgsn(GtpSession via, GtpSession ends) implements GtpTx {
    }
}
