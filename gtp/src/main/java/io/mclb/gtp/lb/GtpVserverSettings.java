package io.mclb.gtp.lb;

import io.mclb.config.VirtualServerConfig;
import io.mclb.gtp.Tbcd;
import io.mclb.gtp.v0.TidLayout;
import io.mclb.vserver.VirtualServer;

import java.util.List;

/**
 * The GTP settings of one virtual server, resolved once per configuration snapshot (never per
 * datagram) from its {@link GtpLines} records.
 *
 * @param inspect          {@code service gtp-inspect}: cause codes are inspected, sessions counted
 * @param stickyImsi       {@code sticky gtp imsi [group N]} present
 * @param stickyGroup      the sticky table group: N, or the virtual server's own group when N is 0/absent
 * @param requestSeconds   {@code idle gtp request S} (default 30): how long a request waits for its
 *                         answer and an answered one lingers for retransmissions
 * @param imsiSeconds      {@code idle gtp imsi S} (default 3600): lifetime of the IMSI sticky entry and
 *                         of an idle session (refreshed by every follow-up)
 * @param cacReassign      {@code gtp notification cac [N]}: CAC failure notifications honoured at most N
 *                         times per IMSI (default N 2); 0 = not configured (notifications counted, ignored)
 * @param carrierPrefixes  {@code client gtp carrier-code CODE} allow-list, packed {@link Tbcd} digits; empty = all
 * @param tidLayout        {@code gtp v0-tid osmo|gsm} (default osmo): where the IMSI sits in a v0 TID
 * @param vip              {@code gtp signalling vip} (with inspection): the virtual address (4 or 16
 *                         octets) that replaces each GGSN's signalling address; null when off
 */
public record GtpVserverSettings(boolean inspect, boolean stickyImsi, int stickyGroup, int requestSeconds,
                                 int imsiSeconds, int cacReassign, long[] carrierPrefixes, TidLayout tidLayout,
                                 byte[] vip) {
    public static final int DEFAULT_REQUEST_SECONDS = 30;
    public static final int DEFAULT_IMSI_SECONDS = 3600;
    public static final int DEFAULT_CAC_REASSIGN = 2;

    private static final long[] POW10 = new long[17];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    public static GtpVserverSettings of(VirtualServerConfig c) {
        GtpLines.StickyImsi sticky = c.record(GtpLines.StickyImsi.class);
        GtpLines.IdleRequest request = c.record(GtpLines.IdleRequest.class);
        GtpLines.IdleImsi imsi = c.record(GtpLines.IdleImsi.class);
        GtpLines.CacNotification cac = c.record(GtpLines.CacNotification.class);
        GtpLines.V0Tid tid = c.record(GtpLines.V0Tid.class);
        List<GtpLines.CarrierCode> codes = c.records(GtpLines.CarrierCode.class);
        boolean inspect = GtpConfigSyntax.SERVICE_INSPECT.equals(c.service());
        boolean anchor = inspect && c.record(GtpLines.SignallingVip.class) != null;
        int group = sticky == null || sticky.group() == 0 ? VirtualServer.ownGroup(c.name()) : sticky.group();
        return new GtpVserverSettings(inspect, sticky != null, group,
                request == null ? DEFAULT_REQUEST_SECONDS : request.seconds(),
                imsi == null ? DEFAULT_IMSI_SECONDS : imsi.seconds(), cac == null ? 0 : cac.reassign(),
                codes.stream().mapToLong(GtpLines.CarrierCode::packed).toArray(),
                tid == null ? TidLayout.OSMO_GGSN : tid.layout(), anchor ? c.address().getAddress() : null);
    }

    /** {@code gtp signalling vip}: the SGSN is given the virtual address and mclb's TEIDs. */
    public boolean signallingVip() {
        return vip != null;
    }

    /** Whether a decoded IMSI (packed {@link Tbcd} digits) starts with an allowed carrier code. Allocation-free. */
    public boolean carrierAllowed(long packedImsi) {
        if (carrierPrefixes.length == 0) {
            return true;
        }
        int n = Tbcd.digitCount(packedImsi);
        long digits = Tbcd.digits(packedImsi);
        for (long p : carrierPrefixes) {
            int k = Tbcd.digitCount(p);
            if (k <= n && digits / POW10[n - k] == Tbcd.digits(p)) {
                return true;
            }
        }
        return false;
    }
}
