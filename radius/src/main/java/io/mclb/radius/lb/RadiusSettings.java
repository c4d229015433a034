package io.mclb.radius.lb;

import io.mclb.config.MclbConfig;
import io.mclb.config.ProbeConfig;
import io.mclb.config.RealConfig;
import io.mclb.config.VirtualServerConfig;
import io.mclb.radius.codec.RadiusSecret;
import io.mclb.vserver.VirtualServer;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything the RADIUS module reads from one configuration, resolved once per (re)load from its
 * {@link RadiusLines} records: NAS clients, the radius probes' settings and the per-virtual-server
 * settings. Immutable; published to the event loops as one object.
 */
final class RadiusSettings {
    final ClientTable clients;
    final Map<String, VserverRadius> vservers;
    /** The {@code ip slb probe NAME radius} settings by probe name. */
    final Map<String, ProbeSettings> probes;

    private RadiusSettings(ClientTable clients, Map<String, VserverRadius> vservers, Map<String, ProbeSettings> probes) {
        this.clients = clients;
        this.vservers = Map.copyOf(vservers);
        this.probes = Map.copyOf(probes);
    }

    static final RadiusSettings EMPTY = new RadiusSettings(new ClientTable(List.of()), Map.of(), Map.of());

    static RadiusSettings from(MclbConfig c) {
        Map<String, ProbeSettings> probes = new LinkedHashMap<>();
        for (ProbeConfig p : c.probes().values()) {
            if (p.settings() instanceof ProbeSettings s) {
                probes.put(p.name(), s);
            }
        }
        return new RadiusSettings(new ClientTable(c.records(RadiusLines.Client.class)), vservers(c), probes);
    }

    private static Map<String, VserverRadius> vservers(MclbConfig c) {
        List<VirtualServerConfig> radius = c.vservers().values().stream()
                .filter(v -> RadiusConfigSyntax.SERVICE.equals(v.service())).toList();
        Set<Integer> framedGroups = new HashSet<>();
        for (VirtualServerConfig v : radius) {
            for (RadiusLines.Sticky s : v.records(RadiusLines.Sticky.class)) {
                if (s.identity() == RadiusLines.Identity.FRAMED_IP) {
                    framedGroups.add(group(v, s));
                }
            }
        }
        Map<String, VserverRadius> out = new LinkedHashMap<>();
        for (VirtualServerConfig v : radius) {
            int csid = 0;
            int user = 0;
            int framed = 0;
            for (RadiusLines.Sticky s : v.records(RadiusLines.Sticky.class)) {
                switch (s.identity()) {
                    case CALLING_STATION_ID -> csid = group(v, s);
                    case USERNAME -> user = group(v, s);
                    case FRAMED_IP -> framed = group(v, s);
                }
            }
            // framed IPs are learnt into this vserver's framed-ip group, else one another vserver shares with it
            int learn = framed;
            if (learn == 0 && csid != 0 && framedGroups.contains(csid)) {
                learn = csid;
            }
            if (learn == 0 && user != 0 && framedGroups.contains(user)) {
                learn = user;
            }
            RadiusLines.IdleRequest request = v.record(RadiusLines.IdleRequest.class);
            RadiusLines.IdleSubscriber subscriber = v.record(RadiusLines.IdleSubscriber.class);
            RadiusLines.LocalAck ack = v.record(RadiusLines.LocalAck.class);
            List<RadiusLines.Inject> inject = v.records(RadiusLines.Inject.class);
            List<RadiusLines.RequireMessageAuthenticator> ma = v.records(RadiusLines.RequireMessageAuthenticator.class);
            out.put(v.name(), new VserverRadius(v.name(), csid, user, framed, learn,
                    request == null ? VserverRadius.DEFAULT_REQUEST_TIMEOUT_MS : request.seconds() * 1000L,
                    subscriber == null ? VserverRadius.DEFAULT_SUBSCRIBER_SECONDS : subscriber.seconds(),
                    v.records(RadiusLines.Purge.class).stream().anyMatch(RadiusLines.Purge::onOff),
                    ack == null ? null : ack.secret(), inject.stream().anyMatch(RadiusLines.Inject::auth),
                    inject.stream().anyMatch(i -> !i.auth()), PassThroughRule.passThrough(c, v),
                    ma.stream().anyMatch(RadiusLines.RequireMessageAuthenticator::fromClients),
                    ma.stream().anyMatch(RadiusLines.RequireMessageAuthenticator::fromServers)));
        }
        return out;
    }

    private static int group(VirtualServerConfig v, RadiusLines.Sticky s) {
        return s.group() != 0 ? s.group() : VirtualServer.ownGroup(v.name());
    }

    /** The secret of a real ({@code mclb radius key ...} sub-line), or null. */
    static RadiusSecret realSecret(RealConfig r) {
        RadiusLines.RealKey k = r.record(RadiusLines.RealKey.class);
        return k == null ? null : k.secret();
    }
}
