package io.mclb.radius.lb;

import io.mclb.config.ConfigBlock;
import io.mclb.config.ConfigSyntax;
import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.PredictorKind;
import io.mclb.config.RealConfig;
import io.mclb.config.ServerFarmConfig;
import io.mclb.config.SourceRef;
import io.mclb.config.VirtualServerConfig;
import io.mclb.radius.codec.RadiusSecret;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.mclb.radius.lb.ConfigTokens.end;
import static io.mclb.radius.lb.ConfigTokens.integer;
import static io.mclb.radius.lb.ConfigTokens.is;
import static io.mclb.radius.lb.ConfigTokens.lower;

/**
 * The RADIUS configuration lines (radius/README.md lists them). Secrets are stored as
 * {@code key 7 <obfuscated>} (and probe passwords as {@code password 7 ...}) through
 * {@link Claim#ok(List, List)}, so {@code show running-config} never prints them in clear.
 * Stateless: safe to share between parses.
 */
public final class RadiusConfigSyntax implements ConfigSyntax {
    public static final String OWNER = "radius";
    public static final String SERVICE = "radius";

    @Override
    public String owner() {
        return OWNER;
    }

    @Override
    public List<String> services() {
        return List.of(SERVICE);
    }

    @Override
    public Claim claimLine(ConfigBlock block, List<String> t) {
        try {
            return switch (block) {
                case GLOBAL -> global(t);
                case REAL -> real(t);
                case VSERVER -> vserver(t);
                case SERVERFARM -> farm(t);
            };
        } catch (IllegalArgumentException e) {
            return Claim.error(e.getMessage());
        }
    }

    private static Claim global(List<String> t) {
        if (is(t, 0, "mclb") && is(t, 1, "radius") && is(t, 2, "client")) {
            RadiusSecret s = client(t).secret();
            return Claim.ok(ConfigTokens.obfuscated(t, 5, s), null);
        }
        if (is(t, 0, "access-list")) {
            acl(t);
            return Claim.ok();
        }
        return Claim.notMine();
    }

    /** {@code mclb radius client IP MASK key 0|7 SECRET}. */
    static ClientTable.ClientLine client(List<String> t) {
        String label = "mclb radius client";
        if (t.size() < 6) {
            throw new IllegalArgumentException(label + ": expected 'mclb radius client IP MASK key 0|7 SECRET'");
        }
        var a = ConfigTokens.address(t.get(3), label);
        int bits = a.getAddress().length * 8;
        int prefix = ConfigTokens.prefix(t.get(4), bits, label + " mask");
        return new ClientTable.ClientLine(a, prefix, ConfigTokens.key(t, 5, label));
    }

    /** {@code access-list N permit ip SRC WILDCARD|host SRC|any any}. */
    static RouteMaps.AclLine acl(List<String> t) {
        String label = "access-list";
        integer(t, 1, label + " number", 1, 2699);
        if (!is(t, 2, "permit") || !is(t, 3, "ip")) {
            throw new IllegalArgumentException(label + " " + t.get(1)
                    + ": only 'permit ip SRC WILDCARD any' is supported (source matching for route maps)");
        }
        int src;
        int wildcard;
        int next;
        if (is(t, 4, "any")) {
            src = 0;
            wildcard = -1;
            next = 5;
        } else if (is(t, 4, "host") && t.size() > 5) {
            src = ConfigTokens.ipv4(t.get(5), label + " source");
            wildcard = 0;
            next = 6;
        } else if (t.size() > 5) {
            src = ConfigTokens.ipv4(t.get(4), label + " source");
            wildcard = ConfigTokens.ipv4(t.get(5), label + " wildcard");
            next = 6;
        } else {
            throw new IllegalArgumentException(label + " " + t.get(1) + ": expected 'permit ip SRC WILDCARD any'");
        }
        if (!is(t, next, "any")) {
            throw new IllegalArgumentException(label + " " + t.get(1) + ": destination must be 'any'");
        }
        end(t, next, label);
        return new RouteMaps.AclLine(src, wildcard);
    }

    @Override
    public Claim claimStanza(List<String> h, List<List<String>> children) {
        try {
            if (is(h, 0, "route-map")) {
                routeMapEntry(h, children);
                return Claim.ok();
            }
            if (is(h, 0, "ip") && is(h, 1, "slb") && is(h, 2, "probe") && is(h, 4, SERVICE)) {
                ProbeSettings p = probe(h, children);
                List<List<String>> stored = new ArrayList<>();
                for (List<String> c : children) {
                    stored.add(is(c, 0, "access-request") ? ConfigTokens.obfuscated(c, 3, p.password()) : c);
                }
                return Claim.ok(h, stored);
            }
        } catch (IllegalArgumentException e) {
            return Claim.error(e.getMessage());
        }
        return Claim.notMine();
    }

    /** {@code route-map NAME permit SEQ} with {@code match ip address N...} and {@code set ip next-hop IP}. */
    static RouteMaps.Entry routeMapEntry(List<String> h, List<List<String>> children) {
        String label = "route-map";
        if (h.size() < 2) {
            throw new IllegalArgumentException("route-map: missing name");
        }
        if (h.size() > 2 && !is(h, 2, "permit")) {
            throw new IllegalArgumentException("route-map " + h.get(1) + ": only 'permit' entries are supported");
        }
        int seq = h.size() > 3 ? integer(h, 3, label + " sequence", 0, 65535) : 10;
        end(h, 3, label);
        List<String> acls = new ArrayList<>();
        int nextHop = 0;
        for (List<String> c : children) {
            if (is(c, 0, "match") && is(c, 1, "ip") && is(c, 2, "address") && c.size() > 3) {
                for (int i = 3; i < c.size(); i++) {
                    integer(c, i, label + " match ip address", 1, 2699);
                    acls.add(c.get(i));
                }
            } else if (is(c, 0, "set") && is(c, 1, "ip") && is(c, 2, "next-hop") && c.size() == 4) {
                nextHop = ConfigTokens.ipv4(c.get(3), label + " set ip next-hop");
            } else {
                throw new IllegalArgumentException("route-map " + h.get(1) + ": unknown line '" + String.join(" ", c)
                        + "', allowed 'match ip address N...', 'set ip next-hop IP'");
            }
        }
        if (nextHop == 0) {
            throw new IllegalArgumentException("route-map " + h.get(1) + " " + seq + ": missing 'set ip next-hop IP'");
        }
        return new RouteMaps.Entry(seq, List.copyOf(acls), nextHop);
    }

    /** {@code ip slb probe NAME radius} and its sub-lines. */
    static ProbeSettings probe(List<String> h, List<List<String>> children) {
        String name = h.get(3);
        String label = "probe " + name;
        end(h, 4, label);
        int interval = ProbeSettings.DEFAULT_INTERVAL;
        int faildetect = ProbeSettings.DEFAULT_FAILDETECT;
        int timeout = ProbeSettings.DEFAULT_TIMEOUT;
        String user = null;
        RadiusSecret password = null;
        for (List<String> c : children) {
            switch (lower(c, 0)) {
                case "interval" -> {
                    interval = integer(c, 1, label + " interval", 1, 65535);
                    end(c, 1, label);
                }
                case "faildetect" -> {
                    faildetect = integer(c, 1, label + " faildetect", 1, 255);
                    end(c, 1, label);
                }
                case "timeout" -> {
                    timeout = integer(c, 1, label + " timeout", 1, 65535);
                    end(c, 1, label);
                }
                case "status-server" -> {
                    end(c, 0, label);
                    user = null;
                    password = null;
                }
                case "access-request" -> {
                    if (!is(c, 1, "user") || c.size() < 5 || !is(c, 3, "password")) {
                        throw new IllegalArgumentException(label + ": expected 'access-request user U password 0|7 P'");
                    }
                    user = c.get(2);
                    password = ConfigTokens.key(c, 3, label + " access-request password");
                }
                default -> throw new IllegalArgumentException(label + ": unknown line '" + lower(c, 0)
                        + "', allowed interval S, faildetect N, timeout S, status-server, access-request user U password 0|7 P");
            }
        }
        return new ProbeSettings(name, interval, faildetect, timeout, user, password);
    }

    private static Claim real(List<String> t) {
        if (is(t, 0, "mclb") && is(t, 1, "radius")) {
            RadiusSecret s = ConfigTokens.key(t, 2, "mclb radius key");
            return Claim.ok(ConfigTokens.obfuscated(t, 2, s), null);
        }
        return Claim.notMine();
    }

    private static Claim farm(List<String> t) {
        if (is(t, 0, "probe") && t.size() == 2) {
            return Claim.ok();
        }
        return Claim.notMine();
    }

    private static Claim vserver(List<String> t) {
        if (is(t, 0, "sticky") && is(t, 1, "radius")) {
            String label = "sticky radius";
            switch (lower(t, 2)) {
                case "calling-station-id", "username", "framed-ip" -> {
                }
                default -> throw new IllegalArgumentException(label + ": '" + lower(t, 2)
                        + "' unknown, allowed calling-station-id, username, framed-ip");
            }
            if (t.size() > 3) {
                if (!is(t, 3, "group")) {
                    throw new IllegalArgumentException(label + " " + t.get(2) + ": expected 'group N'");
                }
                integer(t, 4, label + " group", 1, 32767);
                end(t, 4, label);
            }
            return Claim.ok();
        }
        if (is(t, 0, "idle") && is(t, 1, "radius")) {
            if (!is(t, 2, "request") && !is(t, 2, "framed-ip")) {
                throw new IllegalArgumentException("idle radius: allowed 'request S', 'framed-ip S'");
            }
            integer(t, 3, "idle radius " + t.get(2), 1, is(t, 2, "request") ? 3600 : 2_000_000);
            end(t, 3, "idle radius");
            return Claim.ok();
        }
        if (is(t, 0, "purge") && is(t, 1, "radius")) {
            if (!is(t, 2, "framed-ip") || !is(t, 3, "acct") || !(is(t, 4, "on-off") || is(t, 4, "stop"))) {
                throw new IllegalArgumentException("purge radius: expected 'purge radius framed-ip acct on-off|stop'");
            }
            end(t, 4, "purge radius framed-ip acct");
            return Claim.ok();
        }
        if (is(t, 0, "radius")) {
            if (is(t, 1, "acct") && is(t, 2, "local-ack")) {
                RadiusSecret s = ConfigTokens.key(t, 3, "radius acct local-ack");
                return Claim.ok(ConfigTokens.obfuscated(t, 3, s), null);
            }
            if (is(t, 1, "inject") && (is(t, 2, "auth") || is(t, 2, "acct")) && is(t, 3, "vsa") && is(t, 4, "cisco")
                    && t.size() == 5) {
                return Claim.ok();
            }
            throw new IllegalArgumentException("radius: allowed 'radius acct local-ack key 0|7 SECRET', "
                    + "'radius inject auth vsa cisco', 'radius inject acct vsa cisco'");
        }
        return Claim.notMine();
    }

    @Override
    public void validate(MclbConfig c, ErrorSink errors) {
        RadiusSettings s;
        try {
            s = RadiusSettings.from(c);
        } catch (IllegalArgumentException e) {
            errors.error(SourceRef.NONE, e.getMessage());
            return;
        }
        Set<String> radiusFarms = new HashSet<>();
        boolean anyRadius = false;
        for (VirtualServerConfig v : c.vservers().values()) {
            boolean radius = SERVICE.equals(v.service());
            anyRadius |= radius;
            if (!radius) {
                for (ExtensionLine x : v.extensions()) {
                    if (x.owner().equals(OWNER)) {
                        errors.error(x.source(), "'" + x.tokens().get(0) + " " + x.tokens().get(1)
                                + " ...' needs 'service radius' on the virtual line of vserver " + v.name());
                    }
                }
                continue;
            }
            radiusFarms.add(v.farm());
            if (v.backupFarm() != null) {
                radiusFarms.add(v.backupFarm());
            }
            ServerFarmConfig primary = c.farms().get(v.farm());
            if (primary != null && primary.predictor() == PredictorKind.ROUTE_MAP && v.backupFarm() == null) {
                errors.error(v.source(), "vserver " + v.name() + ": serverfarm " + v.farm()
                        + " uses predictor route-map, which takes no reals: name the reals the route map's next hops"
                        + " point at with 'serverfarm " + v.farm() + " backup FARM'");
            }
            if (primary != null && primary.predictor() == PredictorKind.ROUTE_MAP && v.backupFarm() != null) {
                ServerFarmConfig b = c.farms().get(v.backupFarm());
                for (RouteMaps.Entry e : s.routeMaps.entries(primary.routeMap())) {
                    boolean found = b != null && b.reals().stream().anyMatch(r -> r.address().getAddress().length == 4
                            && ClientTable.toInt(r.address().getAddress()) == e.nextHop());
                    if (!found) {
                        errors.warning(v.source(), "vserver " + v.name() + ": route-map " + primary.routeMap() + " "
                                + e.seq() + " next hop is no real of serverfarm " + v.backupFarm()
                                + ": matching subscribers are balanced by the backup farm");
                    }
                }
            }
        }
        if (anyRadius && s.clients.isEmpty()) {
            errors.warning(SourceRef.NONE, "no 'mclb radius client IP MASK key ...' line: every RADIUS request will be"
                    + " dropped (radius_unknown_client)");
        }
        for (ServerFarmConfig f : c.farms().values()) {
            validateFarm(c, f, s, radiusFarms.contains(f.name()), errors);
        }
    }

    private static void validateFarm(MclbConfig c, ServerFarmConfig f, RadiusSettings s, boolean radius,
                                     ErrorSink errors) {
        if (f.predictor() == PredictorKind.ROUTE_MAP) {
            if (!s.routeMaps.has(f.routeMap())) {
                errors.error(f.source(), "serverfarm " + f.name() + ": predictor route-map " + f.routeMap()
                        + ": no such route-map");
            }
            for (ExtensionLine x : f.extensions()) {
                errors.error(x.source(), "serverfarm " + f.name() + " uses predictor route-map, which takes no further"
                        + " farm lines (IOS): remove '" + x.tokens().get(0) + " ...'");
            }
            if (f.failActionPurge()) {
                errors.error(f.source(), "serverfarm " + f.name() + " uses predictor route-map, which takes no further"
                        + " farm lines (IOS): remove 'failaction purge'");
            }
            return;
        }
        for (ExtensionLine x : f.extensions()) {
            if (x.owner().equals(OWNER) && is(x.tokens(), 0, "probe") && !s.probes.containsKey(x.tokens().get(1))) {
                errors.warning(x.source(), "serverfarm " + f.name() + ": probe " + x.tokens().get(1)
                        + " is not an 'ip slb probe NAME radius': ignored");
            }
        }
        if (!radius) {
            return;
        }
        if (f.predictor() != PredictorKind.ROUNDROBIN) {
            errors.error(f.source(), "serverfarm " + f.name() + " serves RADIUS: predictor "
                    + f.predictor().name().toLowerCase(java.util.Locale.ROOT)
                    + " not allowed, RADIUS farms use weighted round robin or route-map (IOS)");
        }
        for (RealConfig r : f.reals()) {
            if (RadiusSettings.realSecret(r) == null) {
                errors.error(r.source(), "real " + r.address().getHostAddress() + " of serverfarm " + f.name()
                        + " serves RADIUS and needs its shared secret: 'mclb radius key 0|7 SECRET'");
            }
        }
    }
}
