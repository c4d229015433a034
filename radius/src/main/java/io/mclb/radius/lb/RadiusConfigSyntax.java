package io.mclb.radius.lb;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.ConfigBlock;
import io.mclb.config.ConfigLine;
import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.PredictorKind;
import io.mclb.config.ServerFarmConfig;
import io.mclb.config.SourceRef;
import io.mclb.config.VirtualServerConfig;
import io.mclb.radius.codec.RadiusSecret;
import io.mclb.service.ConfigSyntax;

import java.net.InetAddress;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The RADIUS configuration lines (radius/README.md lists them), read once into {@link RadiusLines}
 * records. Secrets are stored as {@code key 7 <obfuscated>} so {@code show running-config} never
 * prints them in clear. The route-map lines belong to the engine ({@code io.mclb.predictor}), the
 * {@code radius} probe type to {@link RadiusProbe}. Stateless: safe to share between parses.
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
    public List<String> keywords(ConfigBlock block) {
        return block == ConfigBlock.VSERVER ? List.of("purge", "radius") : List.of();
    }

    @Override
    public Claim claimLine(ConfigBlock block, ConfigLine line) throws BadLine {
        return switch (block) {
            case GLOBAL -> global(line);
            case REAL -> real(line);
            case VSERVER -> vserver(line);
            case SERVERFARM -> Claim.notMine();
        };
    }

    private static Claim global(ConfigLine l) throws BadLine {
        if (!(l.is(0, "mclb") && l.is(1, "radius") && l.is(2, "client"))) {
            return Claim.notMine();
        }
        List<String> t = l.tokens();
        String label = "mclb radius client";
        if (t.size() < 6) {
            throw new BadLine(label + ": expected 'mclb radius client IP MASK key 0|7 SECRET'");
        }
        InetAddress a = Args.address(t, 3, label);
        int prefix = mask(t.get(4), a.getAddress().length * 8, label + " mask");
        String secret = key(t, 5, label);
        return Claim.of(new RadiusLines.Client(a, prefix, RadiusSecret.ofString(secret)),
                Args.withType7Secret(t, 6, secret));
    }

    /** A dotted IPv4 mask or a bare prefix length (IOS client lines use both). */
    private static int mask(String s, int maxBits, String label) throws BadLine {
        if (s.matches("\\d{1,3}") && Integer.parseInt(s) <= maxBits) {
            return Integer.parseInt(s);
        }
        if (maxBits == 32 && Args.parseAddress(s) != null) {
            return Args.prefix(s, label, 32);
        }
        throw new BadLine(label + ": '" + s + "' is not a contiguous mask or prefix length 0.." + maxBits);
    }

    /** {@code key|password 0|7 SECRET} with the keyword at {@code i}, ending the line: the clear secret. */
    static String key(List<String> t, int i, String label) throws BadLine {
        if (!Args.is(t, i, "key") && !Args.is(t, i, "password")) {
            throw new BadLine(label + ": expected 'key 0|7 SECRET'");
        }
        String clear = Args.secret(t, i + 1, label);
        if (clear.isEmpty()) {
            throw new BadLine(label + ": the secret must not be empty (RFC 2865 section 3)");
        }
        return clear;
    }

    private static Claim real(ConfigLine l) throws BadLine {
        if (!(l.is(0, "mclb") && l.is(1, "radius"))) {
            return Claim.notMine();
        }
        String secret = key(l.tokens(), 2, "mclb radius key");
        return Claim.of(new RadiusLines.RealKey(RadiusSecret.ofString(secret)),
                Args.withType7Secret(l.tokens(), 3, secret));
    }

    private static Claim vserver(ConfigLine l) throws BadLine {
        List<String> t = l.tokens();
        if (l.is(0, "sticky") && l.is(1, "radius")) {
            String label = "sticky radius";
            RadiusLines.Identity id = switch (l.word(2)) {
                case "calling-station-id" -> RadiusLines.Identity.CALLING_STATION_ID;
                case "username" -> RadiusLines.Identity.USERNAME;
                case "framed-ip" -> RadiusLines.Identity.FRAMED_IP;
                default -> throw new BadLine(label + ": '" + l.word(2)
                        + "' unknown, allowed calling-station-id, username, framed-ip");
            };
            int group = 0;
            if (t.size() > 3) {
                if (!l.is(3, "group")) {
                    throw new BadLine(label + " " + t.get(2) + ": expected 'group N'");
                }
                group = Args.integer(t, 4, label + " group", 1, 32767);
                Args.end(t, 4, label);
            }
            return Claim.of(new RadiusLines.Sticky(id, group));
        }
        if (l.is(0, "idle") && l.is(1, "radius")) {
            if (!l.is(2, "request") && !l.is(2, "framed-ip")) {
                throw new BadLine("idle radius: allowed 'request S', 'framed-ip S'");
            }
            boolean request = l.is(2, "request");
            int s = Args.integer(t, 3, "idle radius " + t.get(2), 1, request ? 3600 : 2_000_000);
            Args.end(t, 3, "idle radius");
            return Claim.of(request ? new RadiusLines.IdleRequest(s) : new RadiusLines.IdleSubscriber(s));
        }
        if (l.is(0, "purge") && l.is(1, "radius")) {
            if (!l.is(2, "framed-ip") || !l.is(3, "acct") || !(l.is(4, "on-off") || l.is(4, "stop"))) {
                throw new BadLine("purge radius: expected 'purge radius framed-ip acct on-off|stop'");
            }
            Args.end(t, 4, "purge radius framed-ip acct");
            return Claim.of(new RadiusLines.Purge(l.is(4, "on-off")));
        }
        if (l.is(0, "radius")) {
            if (l.is(1, "acct") && l.is(2, "local-ack")) {
                String secret = key(t, 3, "radius acct local-ack");
                return Claim.of(new RadiusLines.LocalAck(RadiusSecret.ofString(secret)), Args.withType7Secret(t, 4, secret));
            }
            if (l.is(1, "inject") && (l.is(2, "auth") || l.is(2, "acct")) && l.is(3, "vsa") && l.is(4, "cisco")
                    && t.size() == 5) {
                return Claim.of(new RadiusLines.Inject(l.is(2, "auth")));
            }
            if (l.is(1, "require") && l.is(2, "message-authenticator")) {
                if (t.size() == 3) {
                    return Claim.of(new RadiusLines.RequireMessageAuthenticator(true, true));
                }
                if (t.size() == 4 && (l.is(3, "client") || l.is(3, "server"))) {
                    return Claim.of(new RadiusLines.RequireMessageAuthenticator(l.is(3, "client"), l.is(3, "server")));
                }
                throw new BadLine("radius require message-authenticator: expected nothing more, 'client' or 'server'");
            }
            throw new BadLine("radius: allowed 'radius acct local-ack key 0|7 SECRET', "
                    + "'radius inject auth vsa cisco', 'radius inject acct vsa cisco', "
                    + "'radius require message-authenticator [client|server]'");
        }
        return Claim.notMine();
    }

    @Override
    public void validate(MclbConfig c, ErrorSink errors) {
        Set<String> radiusFarms = new HashSet<>();
        Set<SourceRef> reported = new HashSet<>();
        for (VirtualServerConfig v : c.vservers().values()) {
            if (!SERVICE.equals(v.service())) {
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
            PassThroughRule.validate(c, v, errors, reported);
            for (ExtensionLine x : v.extensions()) {
                if (x.owner().equals(OWNER) && x.record() instanceof RadiusLines.RequireMessageAuthenticator
                        && PassThroughRule.passThrough(c, v)) {
                    errors.error(x.source(), "radius require message-authenticator: vserver " + v.name()
                            + " is pass-through (mclb holds no secret for it), so it cannot verify a"
                            + " Message-Authenticator; give its NASes 'mclb radius client' lines and its reals"
                            + " 'mclb radius key' lines");
                }
            }
        }
        for (ServerFarmConfig f : c.farms().values()) {
            if (radiusFarms.contains(f.name()) && f.predictor() != PredictorKind.ROUTE_MAP
                    && f.predictor() != PredictorKind.ROUNDROBIN) {
                errors.error(f.source(), "serverfarm " + f.name() + " serves RADIUS: predictor "
                        + f.predictor().name().toLowerCase(Locale.ROOT)
                        + " not allowed, RADIUS farms use weighted round robin or route-map (IOS)");
            }
        }
    }
}
