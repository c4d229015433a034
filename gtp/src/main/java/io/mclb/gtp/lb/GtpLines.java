package io.mclb.gtp.lb;

import io.mclb.gtp.v0.TidLayout;

/**
 * The records of the GTP configuration lines ({@link GtpConfigSyntax} reads them once; runtime
 * code reads only these). gtp/README.md lists the lines with their defaults.
 */
final class GtpLines {
    private GtpLines() {
    }

    /** vserver {@code sticky gtp imsi [group N]}; group 0 = the virtual server's own table. */
    record StickyImsi(int group) {
    }

    /** vserver {@code idle gtp request S}: how long a request waits for its answer. */
    record IdleRequest(int seconds) {
    }

    /** vserver {@code idle gtp imsi S}: lifetime of an IMSI's sticky entry and of an idle session. */
    record IdleImsi(int seconds) {
    }

    /** vserver {@code gtp notification cac [N]}: CAC failure notifications honoured N times per IMSI. */
    record CacNotification(int reassign) {
    }

    /** vserver {@code client gtp carrier-code CODE}, the code as packed TBCD digits. */
    record CarrierCode(String digits, long packed) {
    }

    /** vserver {@code gtp v0-tid osmo|gsm}: where the IMSI sits in a v0 TID. */
    record V0Tid(TidLayout layout) {
    }

    /**
     * vserver {@code gtp signalling vip}: the control-plane identity of each GGSN (GSN Address for
     * signalling, TEID-C; v2: the PGW's S5/S8 GTP-C F-TEID) is replaced by the virtual address and a
     * TEID mclb allocates, so the SGSN only ever addresses the virtual server.
     */
    record SignallingVip() {
    }

    /** farm {@code failaction gtp purge}: a GGSN restart (Recovery change) removes its IMSI entries and sessions. */
    record FailactionPurge() {
    }

    /** global {@code ip slb timers gtp gsn S}: a GSN silent this long is forgotten ({@link GsnTable}). */
    record GsnTimer(int seconds) {
    }
}
