package io.mclb.gtp.lb;

import io.mclb.config.ExtensionLine;
import io.mclb.config.VirtualServerConfig;
import io.mclb.gtp.Tbcd;
import io.mclb.gtp.v0.TidLayout;
import io.mclb.vserver.VirtualServer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The GTP lines of one virtual server, parsed once per configuration snapshot (never per
 * datagram). Lines were checked by {@link GtpConfigSyntax#claimLine}, so parsing here cannot fail.
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
 */
public record GtpVserverSettings(boolean inspect, boolean stickyImsi, int stickyGroup, int requestSeconds,
                                 int imsiSeconds, int cacReassign, long[] carrierPrefixes, TidLayout tidLayout) {
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
        boolean inspect = GtpConfigSyntax.SERVICE_INSPECT.equals(c.service());
        boolean sticky = false;
        int group = 0;
        int request = DEFAULT_REQUEST_SECONDS;
        int imsi = DEFAULT_IMSI_SECONDS;
        int cac = 0;
        TidLayout tid = TidLayout.OSMO_GGSN;
        List<Long> prefixes = new ArrayList<>();
        for (ExtensionLine x : c.extensions()) {
            if (!x.owner().equals(GtpConfigSyntax.OWNER)) {
                continue;
            }
            List<String> t = x.tokens();
            String k = t.get(0).toLowerCase(Locale.ROOT);
            if (k.equals("sticky")) {
                sticky = true;
                group = t.size() > 4 ? Integer.parseInt(t.get(4)) : 0;
            } else if (k.equals("idle") && t.get(2).equalsIgnoreCase("request")) {
                request = Integer.parseInt(t.get(3));
            } else if (k.equals("idle")) {
                imsi = Integer.parseInt(t.get(3));
            } else if (k.equals("gtp") && t.get(1).equalsIgnoreCase("notification")) {
                cac = t.size() > 3 ? Integer.parseInt(t.get(3)) : DEFAULT_CAC_REASSIGN;
            } else if (k.equals("gtp")) {
                tid = t.get(2).equalsIgnoreCase("gsm") ? TidLayout.GSM_09_60 : TidLayout.OSMO_GGSN;
            } else if (k.equals("client")) {
                String code = t.get(3);
                prefixes.add(Tbcd.pack(Long.parseLong(code), code.length()));
            }
        }
        if (group == 0) {
            group = VirtualServer.ownGroup(c.name());
        }
        long[] p = prefixes.stream().mapToLong(Long::longValue).toArray();
        return new GtpVserverSettings(inspect, sticky, group, request, imsi, cac, p, tid);
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
