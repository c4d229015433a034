package io.mclb.radius.lb;

import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.PredictorKind;
import io.mclb.config.RealConfig;
import io.mclb.config.ServerFarmConfig;
import io.mclb.config.VirtualServerConfig;
import io.mclb.radius.codec.RadiusSecret;
import io.mclb.vserver.VirtualServer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.mclb.radius.lb.ConfigTokens.is;

/**
 * Everything the RADIUS module reads from one configuration, resolved once per (re)load from
 * lines {@link RadiusConfigSyntax} already checked: NAS clients, route maps, probes and the
 * per-virtual-server settings. Immutable; published to the event loops as one object.
 */
final class RadiusSettings {
    final ClientTable clients;
    final RouteMaps routeMaps;
    final Map<String, VserverRadius> vservers;
    final Map<String, ProbeSettings> probes;
    /** Farm name -> probe name, from {@code probe NAME} farm lines naming a radius probe. */
    final Map<String, String> farmProbes;

    private RadiusSettings(ClientTable clients, RouteMaps routeMaps, Map<String, VserverRadius> vservers,
                           Map<String, ProbeSettings> probes, Map<String, String> farmProbes) {
        this.clients = clients;
        this.routeMaps = routeMaps;
        this.vservers = Map.copyOf(vservers);
        this.probes = Map.copyOf(probes);
        this.farmProbes = Map.copyOf(farmProbes);
    }

    static final RadiusSettings EMPTY = new RadiusSettings(new ClientTable(List.of()),
            new RouteMaps(Map.of(), Map.of()), Map.of(), Map.of(), Map.of());

    static RadiusSettings from(MclbConfig c) {
        List<ClientTable.ClientLine> clients = new ArrayList<>();
        Map<String, List<RouteMaps.AclLine>> acls = new HashMap<>();
        Map<String, List<RouteMaps.Entry>> maps = new HashMap<>();
        Map<String, ProbeSettings> probes = new LinkedHashMap<>();
        for (ExtensionLine x : c.globalExtensions(RadiusConfigSyntax.OWNER)) {
            List<String> t = x.tokens();
            if (is(t, 0, "mclb")) {
                clients.add(RadiusConfigSyntax.client(t));
            } else if (is(t, 0, "access-list")) {
                acls.computeIfAbsent(t.get(1), k -> new ArrayList<>()).add(RadiusConfigSyntax.acl(t));
            } else if (is(t, 0, "route-map")) {
                RouteMaps.Entry e = RadiusConfigSyntax.routeMapEntry(t, x.children());
                List<RouteMaps.Entry> l = maps.computeIfAbsent(t.get(1), k -> new ArrayList<>());
                l.add(e);
                l.sort((a, b) -> Integer.compare(a.seq(), b.seq()));
            } else if (is(t, 0, "ip")) {
                ProbeSettings p = RadiusConfigSyntax.probe(t, x.children());
                probes.put(p.name(), p);
            }
        }
        Map<String, String> farmProbes = new HashMap<>();
        for (ServerFarmConfig f : c.farms().values()) {
            for (ExtensionLine x : f.extensions()) {
                if (x.owner().equals(RadiusConfigSyntax.OWNER) && is(x.tokens(), 0, "probe")
                        && probes.containsKey(x.tokens().get(1))) {
                    farmProbes.put(f.name(), x.tokens().get(1));
                }
            }
        }
        Map<String, VserverRadius> vs = vservers(c);
        return new RadiusSettings(new ClientTable(clients), new RouteMaps(acls, maps), vs, probes, farmProbes);
    }

    private static Map<String, VserverRadius> vservers(MclbConfig c) {
        record Raw(VirtualServerConfig v, int csid, int user, int framed, long reqMs, int subS, boolean onOff,
                   RadiusSecret ack, boolean injAuth, boolean injAcct) {
        }
        List<Raw> raws = new ArrayList<>();
        for (VirtualServerConfig v : c.vservers().values()) {
            if (!RadiusConfigSyntax.SERVICE.equals(v.service())) {
                continue;
            }
            int own = VirtualServer.ownGroup(v.name());
            int csid = 0, user = 0, framed = 0, subS = VserverRadius.DEFAULT_SUBSCRIBER_SECONDS;
            long reqMs = VserverRadius.DEFAULT_REQUEST_TIMEOUT_MS;
            boolean onOff = false, injAuth = false, injAcct = false;
            RadiusSecret ack = null;
            for (ExtensionLine x : v.extensions()) {
                List<String> t = x.tokens();
                if (is(t, 0, "sticky")) {
                    int g = t.size() >= 5 ? Integer.parseInt(t.get(4)) : own;
                    switch (ConfigTokens.lower(t, 2)) {
                        case "calling-station-id" -> csid = g;
                        case "username" -> user = g;
                        default -> framed = g;
                    }
                } else if (is(t, 0, "idle")) {
                    int s = Integer.parseInt(t.get(3));
                    if (is(t, 2, "request")) {
                        reqMs = s * 1000L;
                    } else {
                        subS = s;
                    }
                } else if (is(t, 0, "purge")) {
                    onOff |= is(t, 4, "on-off");
                } else if (is(t, 1, "acct") && is(t, 2, "local-ack")) {
                    ack = ConfigTokens.key(t, 3, "radius acct local-ack");
                } else if (is(t, 1, "inject")) {
                    injAuth |= is(t, 2, "auth");
                    injAcct |= is(t, 2, "acct");
                }
            }
            raws.add(new Raw(v, csid, user, framed, reqMs, subS, onOff, ack, injAuth, injAcct));
        }
        Set<Integer> framedGroups = new HashSet<>();
        for (Raw r : raws) {
            if (r.framed != 0) {
                framedGroups.add(r.framed);
            }
        }
        Map<String, VserverRadius> out = new LinkedHashMap<>();
        for (Raw r : raws) {
            int learn = r.framed;
            if (learn == 0 && r.csid != 0 && framedGroups.contains(r.csid)) {
                learn = r.csid;
            }
            if (learn == 0 && r.user != 0 && framedGroups.contains(r.user)) {
                learn = r.user;
            }
            ServerFarmConfig farm = c.farms().get(r.v.farm());
            String routeMap = farm != null && farm.predictor() == PredictorKind.ROUTE_MAP ? farm.routeMap() : null;
            out.put(r.v.name(), new VserverRadius(r.v.name(), r.csid, r.user, r.framed, learn, r.reqMs, r.subS,
                    r.onOff, r.ack, r.injAuth, r.injAcct, routeMap));
        }
        return out;
    }

    /** The secret of a real ({@code mclb radius key ...} sub-line), or null. */
    static RadiusSecret realSecret(RealConfig r) {
        for (ExtensionLine x : r.extensions()) {
            if (x.owner().equals(RadiusConfigSyntax.OWNER)) {
                return ConfigTokens.key(x.tokens(), 2, "mclb radius key");
            }
        }
        return null;
    }
}
