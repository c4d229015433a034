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

    /** {@code show reals [sfarm NAME] [detail]}. */
    public Table reals(ShowArgs a) {
        String only = a.value("sfarm");
        boolean detail = a.flag("detail");
        a.end("sfarm NAME, detail");
        requireFarm(only, "reals sfarm");
        Table t = detail
                ? new Table("real", "farm", "weight", "oper_weight", "state", "conns", "clients", "failures",
                        "maxconns", "reassign", "faildetect", "retry_s", "failing_probes")
                : new Table("real", "farm", "weight", "state", "conns", "clients", "failures");
        for (ServerFarm f : rt.farms().values()) {
            if (only != null && !f.name().equals(only)) {
                continue;
            }
            for (RealServer r : f.reals()) {
                if (detail) {
                    var c = r.config();
                    t.row(r.label(), f.name(), c.weight(), r.operWeight(), r.state().name(), r.activeConnections(),
                            r.clients(), r.failures(), c.maxConns(), c.reassign(), c.inbandFaildetect()
                                    ? "numconns " + c.faildetectNumconns() + " numclients " + c.faildetectNumclients()
                                    : "off", c.retrySeconds(),
                            r.failingProbes().isEmpty() ? "-" : String.join(",", r.failingProbes()));
                } else {
                    t.row(r.label(), f.name(), r.operWeight(), r.state().name(), r.activeConnections(), r.clients(),
                            r.failures());
                }
            }
        }
        return t;
    }

    /** {@code show vservers [name NAME] [detail]}; an all-ports virtual server shows port 0, as IOS does. */
    public Table vservers(ShowArgs a) {
        String only = a.value("name");
        boolean detail = a.flag("detail");
        a.end("name NAME, detail");
        if (only != null && !rt.vservers().containsKey(only)) {
            throw new ShowArgs.BadQualifier("show vservers name " + only + ": no such virtual server (defined: "
                    + String.join(", ", rt.vservers().keySet()) + ")");
        }
        Table t = detail
                ? new Table("vserver", "prot", "virtual", "ports", "service", "state", "farm", "sticky", "idle_s",
                        "standby", "flows", "transactions", "requests", "responses", "drops", "advertised",
                        "synguard", "rate_limited")
                : new Table("vserver", "prot", "virtual", "service", "state", "farm", "flows", "requests",
                        "responses", "advertised");
        for (VirtualServer v : rt.vservers().values()) {
            if (only != null && !v.name().equals(only)) {
                continue;
            }
            var c = v.snapshot().config();
            String farm = c.farm() + (c.backupFarm() == null ? "" : " (backup " + c.backupFarm() + ")");
            String service = c.service() == null ? "-" : c.service();
            String advertised = !rt.routeHealth().active() ? "-"
                    : rt.routeHealth().advertised(c.address()) ? "yes" : "no";
            if (detail) {
                String sticky = c.sticky() == null ? "-" : c.sticky().seconds() + "s group " + c.sticky().group();
                t.row(v.name(), "UDP", hostPort(c.address(), c.port()),
                        c.listenPorts().stream().map(String::valueOf).collect(Collectors.joining(",")), service,
                        v.state().name(), farm, sticky, c.idleSeconds(),
                        c.standbyGroup() == null ? "-" : c.standbyGroup(), v.flows(), v.transactionsActive().get(),
                        (long) v.metrics().requests.count(), (long) v.metrics().responses.count(),
                        v.metrics().dropsTotal(), advertised,
                        io.mclb.overload.OverloadSyntax.synGuard(c).text(),
                        v.metrics().dropsOf(io.mclb.overload.SessionGuard.CLIENT_RATE_LIMITED));
            } else {
                t.row(v.name(), "UDP", hostPort(c.address(), c.port()), service, v.state().name(), farm, v.flows(),
                        (long) v.metrics().requests.count(), (long) v.metrics().responses.count(), advertised);
            }
        }
        return t;
    }

    /** {@code show serverfarms [name NAME] [detail]}. */
    public Table serverfarms(ShowArgs a) {
        String only = a.value("name");
        boolean detail = a.flag("detail");
        a.end("name NAME, detail");
        requireFarm(only, "serverfarms name");
        Table t = detail
                ? new Table("farm", "predictor", "reals", "operational", "failaction", "probes", "vservers")
                : new Table("farm", "predictor", "reals", "operational", "failaction");
        for (ServerFarm f : rt.farms().values()) {
            if (only != null && !f.name().equals(only)) {
                continue;
            }
            long up = 0;
            for (RealServer r : f.reals()) {
                if (r.state() == io.mclb.farm.RealState.OPERATIONAL) {
                    up++;
                }
            }
            String predictor = f.config().predictor().keyword()
                    + (f.config().routeMap() == null ? "" : " " + f.config().routeMap());
            if (detail) {
                List<String> users = new ArrayList<>();
                for (VirtualServer v : rt.vservers().values()) {
                    var c = v.snapshot().config();
                    if (f.name().equals(c.farm()) || f.name().equals(c.backupFarm())) {
                        users.add(v.name() + (f.name().equals(c.farm()) ? "" : " (backup)"));
                    }
                }
                List<String> probes = f.config().records(io.mclb.config.ProbeRef.class).stream()
                        .map(io.mclb.config.ProbeRef::name).toList();
                t.row(f.name(), predictor, f.reals().length, up, failaction(f), probes.isEmpty() ? "-"
                        : String.join(",", probes), users.isEmpty() ? "-" : String.join(",", users));
            } else {
                t.row(f.name(), predictor, f.reals().length, up, failaction(f));
            }
        }
        return t;
    }

    /** The farm's failaction lines, the engine's ({@code purge}) and the modules' ({@code gtp purge}, {@code asn purge}). */
    private static String failaction(ServerFarm f) {
        List<String> forms = new ArrayList<>();
        if (f.config().failActionPurge()) {
            forms.add("purge");
        }
        for (io.mclb.config.ExtensionLine x : f.config().extensions()) {
            if (!x.tokens().isEmpty() && x.tokens().get(0).equalsIgnoreCase("failaction")) {
                forms.add(String.join(" ", x.tokens().subList(1, x.tokens().size())));
            }
        }
        return forms.isEmpty() ? "-" : String.join(", ", forms);
    }

    private void requireFarm(String name, String what) {
        if (name != null && !rt.farms().containsKey(name)) {
            throw new ShowArgs.BadQualifier("show " + what + " " + name + ": no such server farm (defined: "
                    + String.join(", ", rt.farms().keySet()) + ")");
        }
    }

    /**
     * {@code show sticky [client IP MASK | gtp imsi [id IMSI] | radius framed-ip|calling-station-id|username
     * [id VALUE] | asn msid [id MSID] | TABLE]}: up to {@code limit} entries. The IOS words name the
     * table ({@code gtp imsi} is {@code gtp-imsi}); {@code legacyTable} is the older joined form.
     */
    public Table sticky(ShowArgs a, String legacyTable, int limit) {
        String kind;
        String typed = null;
        byte[] net = null;
        int prefix = 0;
        String id = a.value("id");
        if (a.peek("client")) {
            a.next();
            String ip = a.required("client IP MASK: the address");
            String mask = a.required("client IP MASK: the mask");
            InetAddress addr = io.mclb.config.Args.parseAddress(ip);
            if (addr == null) {
                throw new ShowArgs.BadQualifier("show sticky client " + ip + ": not an IP address");
            }
            try {
                prefix = io.mclb.config.Args.prefix(mask, "netmask", addr.getAddress().length * 8);
            } catch (io.mclb.config.BadLine e) {
                throw new ShowArgs.BadQualifier("show sticky client " + ip + " " + mask + ": " + e.getMessage());
            }
            net = addr.getAddress();
            kind = StickyKind.CLIENT_IP.label();
        } else {
            List<String> words = new ArrayList<>();
            for (String w = a.next(); w != null; w = a.next()) {
                words.add(w.toLowerCase(java.util.Locale.ROOT));
            }
            kind = !words.isEmpty() ? String.join("-", words)
                    : legacyTable == null || legacyTable.isEmpty() ? null : legacyTable;
            typed = words.isEmpty() ? kind : String.join(" ", words);
        }
        List<String> known = StickyKind.all().stream().map(StickyKind::label).sorted().toList();
        if (kind != null && !known.contains(kind)) {
            throw new ShowArgs.BadQualifier("show sticky " + typed + ": no such sticky table; allowed:"
                    + " client IP MASK, " + known.stream().filter(k -> !k.equals(StickyKind.CLIENT_IP.label()))
                    .map(k -> k.replace('-', ' ') + " [id VALUE]").collect(Collectors.joining(", ")));
        }
        String wanted = kind;
        byte[] network = net;
        int bits = prefix;
        Table t = new Table("table", "group", "identity", "real", "farm", "expires_in_s");
        long nowS = rt.clock().epochMillis() / 1000;
        List<Object[]> rows = new ArrayList<>();
        rt.stickyTable().forEach((k, v) -> {
            StickyKind sk = k.kind();
            if (sk == null || (wanted != null && !sk.label().equals(wanted))
                    || (network != null && !inPrefix(k.identity(), network, bits))) {
                return true;
            }
            String identity = identity(k);
            if (id != null && !identity.equals(id)) {
                return true;
            }
            RealServer r = rt.realById(v.realId());
            rows.add(new Object[] {sk.label(), k.group(), identity,
                    r == null ? "#" + Long.toHexString(v.realId()) : r.label(), r == null ? "-" : r.farmName(),
                    Math.max(0, v.expiresEpochSeconds() - nowS)});
            return rows.size() < limit;
        });
        rows.sort(Comparator.comparing((Object[] r) -> (String) r[0]).thenComparing(r -> (String) r[2]));
        rows.forEach(t::row);
        return t;
    }

    private static boolean inPrefix(byte[] address, byte[] network, int bits) {
        if (address.length != network.length) {
            return false;
        }
        for (int i = 0; i < bits; i++) {
            int mask = 0x80 >>> (i & 7);
            if ((address[i >>> 3] & mask) != (network[i >>> 3] & mask)) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code show conns [vserver NAME | client IP] [detail]}: plain UDP flows and request/response
     * transactions in flight or lingering, at most {@code limit}, each loop listing its own.
     */
    public Table conns(ShowArgs a, int limit) {
        String vserver = a.value("vserver");
        String clientText = a.value("client");
        boolean detail = a.flag("detail");
        a.end("vserver NAME, client IP, detail");
        if (vserver != null && !rt.vservers().containsKey(vserver)) {
            throw new ShowArgs.BadQualifier("show conns vserver " + vserver + ": no such virtual server (defined: "
                    + String.join(", ", rt.vservers().keySet()) + ")");
        }
        InetAddress client = clientText == null ? null : io.mclb.config.Args.parseAddress(clientText);
        if (clientText != null && client == null) {
            throw new ShowArgs.BadQualifier("show conns client " + clientText + ": not an IP address");
        }
        Table t = detail ? new Table("vserver", "prot", "client", "virtual", "real", "state", "age_ms", "idle_ms",
                "detail") : new Table("vserver", "prot", "client", "real", "state");
        List<io.mclb.vserver.Connection> rows = new ArrayList<>();
        for (VirtualServer v : rt.vservers().values()) {
            if ((vserver == null || v.name().equals(vserver)) && rows.size() < limit) {
                rows.addAll(v.connections(c -> client == null || client.equals(c.getAddress()), limit - rows.size()));
            }
        }
        rows.sort(Comparator.comparing(io.mclb.vserver.Connection::vserver)
                .thenComparing(c -> hostPort(c.client().getAddress(), c.client().getPort())));
        for (io.mclb.vserver.Connection c : rows) {
            String from = hostPort(c.client().getAddress(), c.client().getPort());
            if (detail) {
                var vs = rt.vservers().get(c.vserver());
                String vip = vs == null ? "-" : hostPort(vs.snapshot().config().address(), c.listenPort());
                t.row(c.vserver(), "UDP", from, vip, c.real().label(), c.state(), c.ageMs(), c.idleMs(), c.detail());
            } else {
                t.row(c.vserver(), "UDP", from, c.real().label(), c.state());
            }
        }
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
