package io.mclb.predictor;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.ConfigBlock;
import io.mclb.config.ConfigLine;
import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.PredictorKind;
import io.mclb.config.RealConfig;
import io.mclb.config.ServerFarmConfig;
import io.mclb.config.VirtualServerConfig;
import io.mclb.service.ConfigSyntax;

import java.net.Inet4Address;
import java.util.ArrayList;
import java.util.List;

/**
 * The IOS lines the route-map predictor reads: {@code access-list N permit ip SRC WILDCARD|host
 * SRC|any any} and {@code route-map NAME permit SEQ} stanzas with {@code match ip address N...}
 * and {@code set ip next-hop IP}. Rules: a farm's {@code predictor route-map NAME} names an
 * existing route map; such a farm takes no reals and no further farm lines (IOS), so the virtual
 * server names the reals its next hops point at as its backup farm.
 */
public final class RouteMapSyntax implements ConfigSyntax {
    public static final String OWNER = "route-map";

    @Override
    public String owner() {
        return OWNER;
    }

    @Override
    public List<String> keywords(ConfigBlock block) {
        return block == ConfigBlock.GLOBAL ? List.of("access-list", "route-map") : List.of();
    }

    @Override
    public Claim claimLine(ConfigBlock block, ConfigLine line) throws BadLine {
        if (block != ConfigBlock.GLOBAL || !line.is(0, "access-list")) {
            return Claim.notMine();
        }
        return Claim.of(acl(line.tokens()));
    }

    static AccessListLine acl(List<String> t) throws BadLine {
        String label = "access-list";
        int number = Args.integer(t, 1, label + " number", 1, 2699);
        if (!Args.is(t, 2, "permit") || !Args.is(t, 3, "ip")) {
            throw new BadLine(label + " " + t.get(1)
                    + ": only 'permit ip SRC WILDCARD any' is supported (source matching for route maps)");
        }
        int src;
        int wildcard;
        int next;
        if (Args.is(t, 4, "any")) {
            src = 0;
            wildcard = -1;
            next = 5;
        } else if (Args.is(t, 4, "host") && t.size() > 5) {
            src = Args.ipv4(t, 5, label + " source");
            wildcard = 0;
            next = 6;
        } else if (t.size() > 5) {
            src = Args.ipv4(t, 4, label + " source");
            wildcard = Args.ipv4(t, 5, label + " wildcard");
            next = 6;
        } else {
            throw new BadLine(label + " " + t.get(1) + ": expected 'permit ip SRC WILDCARD any'");
        }
        if (!Args.is(t, next, "any")) {
            throw new BadLine(label + " " + t.get(1) + ": destination must be 'any'");
        }
        Args.end(t, next, label);
        return new AccessListLine(number, src, wildcard);
    }

    @Override
    public Claim claimStanza(ConfigLine header, List<ConfigLine> children) throws BadLine {
        if (!header.is(0, "route-map")) {
            return Claim.notMine();
        }
        List<String> h = header.tokens();
        String label = "route-map";
        if (h.size() < 2) {
            throw new BadLine("route-map: missing name");
        }
        if (h.size() > 2 && !header.is(2, "permit")) {
            throw new BadLine("route-map " + h.get(1) + ": only 'permit' entries are supported");
        }
        int seq = h.size() > 3 ? Args.integer(h, 3, label + " sequence", 0, 65535) : 10;
        Args.end(h, 3, label);
        List<Integer> acls = new ArrayList<>();
        int nextHop = 0;
        for (ConfigLine c : children) {
            List<String> t = c.tokens();
            if (c.is(0, "match") && c.is(1, "ip") && c.is(2, "address") && t.size() > 3) {
                for (int i = 3; i < t.size(); i++) {
                    acls.add(Args.integer(t, i, label + " match ip address", 1, 2699));
                }
            } else if (c.is(0, "set") && c.is(1, "ip") && c.is(2, "next-hop") && t.size() == 4) {
                nextHop = Args.ipv4(t, 3, label + " set ip next-hop");
            } else {
                throw new BadLine("route-map " + h.get(1) + ": unknown line '" + c.text()
                        + "', allowed 'match ip address N...', 'set ip next-hop IP'");
            }
        }
        if (nextHop == 0) {
            throw new BadLine("route-map " + h.get(1) + " " + seq + ": missing 'set ip next-hop IP'");
        }
        return Claim.of(new RouteMapEntry(h.get(1), seq, acls, nextHop));
    }

    @Override
    public void validate(MclbConfig c, ErrorSink errors) {
        RouteMaps maps = RouteMaps.of(c);
        for (ServerFarmConfig f : c.farms().values()) {
            if (f.predictor() != PredictorKind.ROUTE_MAP) {
                continue;
            }
            if (!maps.has(f.routeMap())) {
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
        }
        for (VirtualServerConfig v : c.vservers().values()) {
            ServerFarmConfig primary = c.farms().get(v.farm());
            if (primary == null || primary.predictor() != PredictorKind.ROUTE_MAP) {
                continue;
            }
            if (v.backupFarm() == null) {
                errors.error(v.source(), "vserver " + v.name() + ": serverfarm " + v.farm()
                        + " uses predictor route-map, which takes no reals: name the reals the route map's next hops"
                        + " point at with 'serverfarm " + v.farm() + " backup FARM'");
                continue;
            }
            ServerFarmConfig b = c.farms().get(v.backupFarm());
            for (RouteMapEntry e : maps.entries(primary.routeMap())) {
                boolean found = b != null && b.reals().stream().anyMatch(r -> ipv4(r) == e.nextHop());
                if (!found) {
                    errors.warning(v.source(), "vserver " + v.name() + ": route-map " + primary.routeMap() + " "
                            + e.seq() + " next hop is no real of serverfarm " + v.backupFarm()
                            + ": matching subscribers are balanced by the backup farm");
                }
            }
        }
    }

    private static int ipv4(RealConfig r) {
        return r.address() instanceof Inet4Address ? r.address().hashCode() : 0;
    }
}
