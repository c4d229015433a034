package io.mclb.admin;

import io.mclb.farm.RealServer;
import io.mclb.farm.ServerFarm;
import io.mclb.runtime.MclbRuntime;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyKind;
import io.mclb.vserver.VirtualServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/** The {@code show} views, computed from the running balancer. */
public final class AdminViews {
    private final MclbRuntime rt;

    public AdminViews(MclbRuntime rt) {
        this.rt = rt;
    }

    /** {@code show reals}: every real of every farm. */
    public Table reals() {
        Table t = new Table("real", "farm", "weight", "state", "conns", "clients", "failures");
        for (ServerFarm f : rt.farms().values()) {
            for (RealServer r : f.reals()) {
                t.row(r.label(), f.name(), r.operWeight(), r.state().name(), r.activeConnections(), r.clients(),
                        r.failures());
            }
        }
        return t;
    }

    /** {@code show vservers}. */
    public Table vservers() {
        Table t = new Table("vserver", "prot", "virtual", "service", "state", "farm", "flows", "requests",
                "responses", "advertised");
        for (VirtualServer v : rt.vservers().values()) {
            var c = v.snapshot().config();
            t.row(v.name(), "UDP", hostPort(c.address(), c.port()), c.service() == null ? "-" : c.service(),
                    v.state().name(), c.farm() + (c.backupFarm() == null ? "" : " (backup " + c.backupFarm() + ")"),
                    v.flows(), (long) v.metrics().requests.count(), (long) v.metrics().responses.count(),
                    !rt.routeHealth().active() ? "-" : rt.routeHealth().advertised(c.address()) ? "yes" : "no");
        }
        return t;
    }

    /** {@code show serverfarms}. */
    public Table serverfarms() {
        Table t = new Table("farm", "predictor", "reals", "operational", "failaction");
        for (ServerFarm f : rt.farms().values()) {
            long up = 0;
            for (RealServer r : f.reals()) {
                if (r.state() == io.mclb.farm.RealState.OPERATIONAL) {
                    up++;
                }
            }
            t.row(f.name(), f.config().predictor().keyword(), f.reals().length, up,
                    f.config().failActionPurge() ? "purge" : "-");
        }
        return t;
    }

    /**
     * {@code show sticky [TABLE]}: up to {@code limit} entries, optionally of one kind
     * (its {@link StickyKind#label()}, e.g. {@code client-ip}, {@code gtp-imsi}).
     */
    public Table sticky(String kind, int limit) {
        Table t = new Table("table", "group", "identity", "real", "farm", "expires_in_s");
        long nowS = rt.clock().epochMillis() / 1000;
        List<Object[]> rows = new ArrayList<>();
        rt.stickyTable().forEach((k, v) -> {
            StickyKind sk = k.kind();
            if (sk == null || (kind != null && !kind.isEmpty() && !sk.label().equals(kind))) {
                return true;
            }
            RealServer r = rt.realById(v.realId());
            rows.add(new Object[] {sk.label(), k.group(), identity(k),
                    r == null ? "#" + Long.toHexString(v.realId()) : r.label(), r == null ? "-" : r.farmName(),
                    Math.max(0, v.expiresEpochSeconds() - nowS)});
            return rows.size() < limit;
        });
        rows.sort(Comparator.comparing((Object[] r) -> (String) r[0]).thenComparing(r -> (String) r[2]));
        rows.forEach(t::row);
        return t;
    }

    /** {@code show stats}: every mclb counter with its labels. */
    public Table stats() {
        Table t = new Table("counter", "labels", "value");
        List<Meter> meters = new ArrayList<>(rt.registry().getMeters());
        meters.sort(Comparator.comparing((Meter m) -> m.getId().getName()).thenComparing(m -> tags(m)));
        for (Meter m : meters) {
            double value;
            if (m instanceof Counter c) {
                value = c.count();
            } else if (m instanceof FunctionCounter fc) {
                value = fc.count();
            } else {
                continue;
            }
            t.row(m.getId().getName().replace('.', '_') + "_total", tags(m), (long) value);
        }
        return t;
    }

    private static String tags(Meter m) {
        return m.getId().getTags().stream().map(Tag::getKey).sorted().map(k -> k + "=" + m.getId().getTag(k))
                .collect(Collectors.joining(","));
    }

    static String hostPort(InetAddress a, int port) {
        String h = a.getHostAddress();
        return (a instanceof java.net.Inet6Address ? "[" + h + "]" : h) + ":" + port;
    }

    /** A sticky identity for people: addresses as addresses, IMSIs as digits, text as text. */
    static String identity(StickyKey k) {
        byte[] id = k.identity();
        if (k.identityLength() == 0xff) {
            return "#" + java.util.HexFormat.of().formatHex(id);
        }
        StickyKind kind = k.kind();
        StickyKind.Format format = kind == null ? StickyKind.Format.TEXT : kind.format();
        if (format == StickyKind.Format.ADDRESS && (id.length == 4 || id.length == 16)) {
            try {
                return InetAddress.getByAddress(id).getHostAddress();
            } catch (UnknownHostException e) {
                return java.util.HexFormat.of().formatHex(id);
            }
        }
        if (format == StickyKind.Format.TBCD) {
            return tbcd(id);
        }
        boolean printable = true;
        for (byte b : id) {
            printable &= b >= 0x20 && b < 0x7f;
        }
        return printable ? new String(id, StandardCharsets.US_ASCII) : java.util.HexFormat.of().formatHex(id);
    }

    /** 3GPP TS 29.060 7.7.2: IMSI digits in TBCD, low nibble first, 0xF filler. */
    static String tbcd(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            int lo = x & 0x0f;
            int hi = (x >> 4) & 0x0f;
            if (lo <= 9) {
                sb.append((char) ('0' + lo));
            }
            if (hi <= 9) {
                sb.append((char) ('0' + hi));
            }
        }
        return sb.toString();
    }
}
