package io.mclb.gtp.lb;

import io.mclb.admin.AdminServer;
import io.mclb.admin.ShowArgs;
import io.mclb.admin.Table;
import io.mclb.config.Args;
import io.mclb.gtp.Tbcd;
import io.mclb.time.NanoClock;

import java.net.InetAddress;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * {@code show gtp gsn [IP] [detail]} (the GSNs seen, IOS columns type / ip-addr / recovery-ie) and
 * {@code show gtp nsapi [IMSI[:NSAPI]] [detail]} (the sessions mclb tracks with service
 * gtp-inspect: IMSI, NSAPI or EBI, the GGSN holding it, its control TEID).
 */
final class GtpView implements AdminServer.View {
    private static final String ALLOWED = "gsn [IP] [detail], nsapi [IMSI[:NSAPI]] [detail]";

    private final GtpModule module;
    private final NanoClock clock;

    GtpView(GtpModule module, NanoClock clock) {
        this.module = module;
        this.clock = clock;
    }

    @Override
    public Table table(Map<String, String> query) {
        ShowArgs a = ShowArgs.of("gtp", query);
        String what = a.required(ALLOWED);
        boolean detail = a.flag("detail");
        return switch (what.toLowerCase(java.util.Locale.ROOT)) {
            case "gsn" -> {
                InetAddress ip = address(a.next());
                a.end(ALLOWED);
                yield gsn(ip, detail);
            }
            case "nsapi" -> {
                String key = a.next();
                a.end(ALLOWED);
                yield nsapi(key, detail);
            }
            default -> throw new ShowArgs.BadQualifier("show gtp " + what + ": allowed " + ALLOWED);
        };
    }

    private static InetAddress address(String s) {
        if (s == null) {
            return null;
        }
        InetAddress a = Args.parseAddress(s);
        if (a == null) {
            throw new ShowArgs.BadQualifier("show gtp gsn " + s + ": not an IP address");
        }
        return a;
    }

    private Table gsn(InetAddress only, boolean detail) {
        Table t = detail ? new Table("type", "ip-addr", "recovery-ie", "version", "idle_s", "known_s", "restarts",
                "sessions") : new Table("type", "ip-addr", "recovery-ie", "idle_s");
        long now = clock.nanoTime();
        Map<InetAddress, Long> sessions = detail ? sessionsByGgsn() : Map.of();
        for (GsnTable.Gsn g : module.gsns().snapshot()) {
            if (only != null && !only.equals(g.address)) {
                continue;
            }
            String recovery = g.recovery < 0 ? "UNKNOWN" : Integer.toString(g.recovery);
            long idle = Math.max(0, (now - g.lastSeenNs) / 1_000_000_000L);
            if (detail) {
                t.row(g.side.name(), Args.text(g.address), recovery, "v" + g.version, idle,
                        Math.max(0, (now - g.firstSeenNs) / 1_000_000_000L), g.restarts,
                        g.side == GsnTable.Side.GGSN ? sessions.getOrDefault(g.address, 0L) : "-");
            } else {
                t.row(g.side.name(), Args.text(g.address), recovery, idle);
            }
        }
        return t;
    }

    private Map<InetAddress, Long> sessionsByGgsn() {
        Map<InetAddress, Long> n = new java.util.HashMap<>();
        for (GtpSession s : module.sessions().snapshot()) {
            n.merge(s.real().address(), 1L, Long::sum);
        }
        return n;
    }

    private Table nsapi(String key, boolean detail) {
        String imsi = key;
        int nsapi = -1;
        if (key != null) {
            int colon = key.indexOf(':');
            if (colon > 0) {
                imsi = key.substring(0, colon);
                try {
                    nsapi = Integer.parseInt(key.substring(colon + 1));
                } catch (NumberFormatException e) {
                    throw new ShowArgs.BadQualifier("show gtp nsapi " + key + ": expected IMSI or IMSI:NSAPI");
                }
            }
            if (!imsi.matches("[0-9]{5,16}")) {
                throw new ShowArgs.BadQualifier("show gtp nsapi " + key + ": expected IMSI digits or IMSI:NSAPI");
            }
        }
        Table t = detail ? new Table("imsi", "nsapi", "ggsn", "farm", "teid", "ggsn-address", "ggsn-teid")
                : new Table("imsi", "nsapi", "ggsn", "teid");
        List<GtpSession> all = new java.util.ArrayList<>(module.sessions().snapshot());
        all.sort(Comparator.comparing((GtpSession s) -> imsiOf(s)).thenComparingInt(GtpSession::nsapi));
        for (GtpSession s : all) {
            String digits = imsiOf(s);
            if ((imsi != null && !digits.equals(imsi)) || (nsapi >= 0 && s.nsapi() != nsapi)) {
                continue;
            }
            String teid = s.teid() == 0 ? "-" : String.format("0x%08x", s.teid());
            if (detail) {
                // under 'gtp signalling vip' the SGSN knows the session by teid (mclb's), the GGSN by ggsn-teid
                String own = s.ggsnTeid() == 0 ? "-" : String.format("0x%08x", s.ggsnTeid());
                t.row(digits, s.nsapi(), s.real().label(), s.real().farmName(), teid, ggsnAddress(s), own);
            } else {
                t.row(digits, s.nsapi(), s.real().label(), teid);
            }
        }
        return t;
    }

    private static String imsiOf(GtpSession s) {
        long packed = Tbcd.decodeRaw(s.imsiRaw(), 8);
        return packed < 0 ? Long.toHexString(s.imsiRaw()) : Tbcd.toString(packed);
    }

    private static String ggsnAddress(GtpSession s) {
        byte[] a = s.ggsnAddress();
        if (a == null) {
            return "-";
        }
        try {
            return Args.text(InetAddress.getByAddress(a));
        } catch (java.net.UnknownHostException e) {
            return "-";
        }
    }
}
