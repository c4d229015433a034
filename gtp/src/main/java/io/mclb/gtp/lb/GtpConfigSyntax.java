package io.mclb.gtp.lb;

import io.mclb.config.ConfigBlock;
import io.mclb.config.ConfigSyntax;
import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.PredictorKind;
import io.mclb.config.ServerFarmConfig;
import io.mclb.config.VirtualServerConfig;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The GTP configuration lines (gtp/README.md lists them with defaults):
 * <ul>
 * <li>vserver: {@code sticky gtp imsi [group N]}, {@code idle gtp request S}, {@code idle gtp imsi S},
 *     {@code gtp notification cac [N]}, {@code client gtp carrier-code CODE}, {@code gtp v0-tid osmo|gsm};</li>
 * <li>serverfarm: {@code failaction gtp purge}, {@code probe NAME} when NAME is a gtp-echo probe
 *     defined earlier in the file (any other {@code probe} line is left to the core, which warns);</li>
 * <li>global stanza: {@code ip slb probe NAME gtp-echo} with {@code interval S}, {@code faildetect N},
 *     {@code timeout S}.</li>
 * </ul>
 * Rules checked in {@link #validate}: a {@code service gtp} virtual server (no inspection) balances
 * only with weighted round robin (IOS); {@code client gtp carrier-code} needs {@code gtp-inspect};
 * GTP vserver lines only on GTP virtual servers; a farm's gtp-echo probe must exist.
 *
 * <p>Thread-safety: the names of gtp-echo probes seen while parsing are remembered in a concurrent
 * set so a later farm line can be claimed; a name left from an earlier parse is re-checked by
 * {@link #validate} against the configuration itself.
 */
public final class GtpConfigSyntax implements ConfigSyntax {
    public static final String OWNER = "gtp";
    public static final String SERVICE_PLAIN = "gtp";
    public static final String SERVICE_INSPECT = "gtp-inspect";

    private final Set<String> probeNames = ConcurrentHashMap.newKeySet();

    @Override
    public String owner() {
        return OWNER;
    }

    @Override
    public List<String> services() {
        return List.of(SERVICE_PLAIN, SERVICE_INSPECT);
    }

    @Override
    public Claim claimLine(ConfigBlock block, List<String> t) {
        return switch (block) {
            case VSERVER -> vserverLine(t);
            case SERVERFARM -> farmLine(t);
            default -> Claim.notMine();
        };
    }

    private static Claim vserverLine(List<String> t) {
        if (t.size() < 2 || !is(t, 1, "gtp")) {
            if (is(t, 0, "gtp")) {
                return gtpLine(t);
            }
            return Claim.notMine();
        }
        String k = t.get(0).toLowerCase(Locale.ROOT);
        switch (k) {
            case "sticky" -> {
                if (!is(t, 2, "imsi") || !(t.size() == 3 || (t.size() == 5 && is(t, 3, "group")))) {
                    return Claim.error("expected 'sticky gtp imsi [group N]'");
                }
                return t.size() == 5 ? number(t.get(4), "sticky gtp imsi group", 0, 32767) : Claim.ok();
            }
            case "idle" -> {
                if (t.size() != 4 || !(is(t, 2, "request") || is(t, 2, "imsi"))) {
                    return Claim.error("expected 'idle gtp request SECONDS' or 'idle gtp imsi SECONDS'");
                }
                return number(t.get(3), "idle gtp " + t.get(2), 1, 65535);
            }
            case "client" -> {
                if (t.size() != 4 || !is(t, 2, "carrier-code")) {
                    return Claim.error("expected 'client gtp carrier-code CODE' (MCC+MNC digits)");
                }
                String code = t.get(3);
                if (!code.matches("[0-9]{3,15}")) {
                    return Claim.error("client gtp carrier-code '" + code
                            + "': expected 3..15 decimal digits (the MCC+MNC prefix of the IMSI)");
                }
                return Claim.ok();
            }
            default -> {
                return Claim.notMine();
            }
        }
    }

    private static Claim gtpLine(List<String> t) {
        if (is(t, 1, "notification")) {
            if (!is(t, 2, "cac") || t.size() > 4) {
                return Claim.error("expected 'gtp notification cac [REASSIGN-COUNT]'");
            }
            return t.size() == 4 ? number(t.get(3), "gtp notification cac", 1, 5) : Claim.ok();
        }
        if (is(t, 1, "v0-tid")) {
            if (t.size() != 3 || !(is(t, 2, "osmo") || is(t, 2, "gsm"))) {
                return Claim.error("expected 'gtp v0-tid osmo|gsm'");
            }
            return Claim.ok();
        }
        return Claim.error("unknown gtp line '" + String.join(" ", t)
                + "': expected 'gtp notification cac [N]' or 'gtp v0-tid osmo|gsm'");
    }

    private Claim farmLine(List<String> t) {
        if (is(t, 0, "failaction") && is(t, 1, "gtp")) {
            return t.size() == 3 && is(t, 2, "purge") ? Claim.ok() : Claim.error("expected 'failaction gtp purge'");
        }
        if (is(t, 0, "probe") && t.size() == 2 && probeNames.contains(t.get(1))) {
            return Claim.ok();
        }
        return Claim.notMine();
    }

    @Override
    public Claim claimStanza(List<String> header, List<List<String>> children) {
        if (!(header.size() >= 4 && is(header, 0, "ip") && is(header, 1, "slb") && is(header, 2, "probe"))) {
            return Claim.notMine();
        }
        if (!isProbeHeader(header)) {
            return Claim.notMine();
        }
        for (List<String> c : children) {
            String k = c.get(0).toLowerCase(Locale.ROOT);
            if (c.size() != 2 || !Set.of("interval", "faildetect", "timeout").contains(k)) {
                return Claim.error("probe " + header.get(3) + " gtp-echo: unknown line '" + String.join(" ", c)
                        + "': expected 'interval S', 'faildetect N' or 'timeout S'");
            }
            Claim n = number(c.get(1), "probe " + header.get(3) + " " + k, 1, k.equals("faildetect") ? 255 : 65535);
            if (n.kind() != Claim.Kind.OK) {
                return n;
            }
        }
        probeNames.add(header.get(3));
        return Claim.ok();
    }

    static boolean isProbeHeader(List<String> h) {
        return h.size() == 5 && is(h, 0, "ip") && is(h, 1, "slb") && is(h, 2, "probe") && is(h, 4, "gtp-echo");
    }

    @Override
    public void validate(MclbConfig config, ErrorSink errors) {
        Map<String, GtpProbeConfig> probes = GtpProbeConfig.all(config);
        for (ServerFarmConfig f : config.farms().values()) {
            for (ExtensionLine x : f.extensions()) {
                if (x.owner().equals(OWNER) && is(x.tokens(), 0, "probe") && !probes.containsKey(x.tokens().get(1))) {
                    errors.error(x.source(), "probe " + x.tokens().get(1) + ": no 'ip slb probe "
                            + x.tokens().get(1) + " gtp-echo' in this configuration");
                }
            }
        }
        for (VirtualServerConfig v : config.vservers().values()) {
            boolean gtp = SERVICE_PLAIN.equals(v.service()) || SERVICE_INSPECT.equals(v.service());
            for (ExtensionLine x : v.extensions()) {
                if (!x.owner().equals(OWNER)) {
                    continue;
                }
                if (!gtp) {
                    errors.error(x.source(), "'" + x.text() + "' needs 'service gtp' or 'service gtp-inspect' on vserver "
                            + v.name());
                } else if (is(x.tokens(), 0, "client") && !SERVICE_INSPECT.equals(v.service())) {
                    errors.error(x.source(), "'" + x.text() + "': carrier-code filtering needs 'service gtp-inspect' on vserver "
                            + v.name() + " (it has 'service gtp', which does not read IMSIs)");
                }
            }
            ServerFarmConfig farm = v.farm() == null ? null : config.farms().get(v.farm());
            if (SERVICE_PLAIN.equals(v.service()) && farm != null && farm.predictor() != PredictorKind.ROUNDROBIN) {
                errors.error(v.source(), "vserver " + v.name() + ": 'service gtp' (no cause inspection) may only use "
                        + "weighted round robin, but serverfarm " + farm.name() + " (" + farm.source()
                        + ") has 'predictor " + farm.predictor().keyword()
                        + "': use 'service gtp-inspect' or 'predictor roundrobin'");
            }
        }
    }

    private static Claim number(String s, String what, int min, int max) {
        try {
            int n = Integer.parseInt(s);
            if (n >= min && n <= max) {
                return Claim.ok();
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        return Claim.error(what + " '" + s + "': expected an integer " + min + ".." + max);
    }

    private static boolean is(List<String> t, int i, String word) {
        return i < t.size() && t.get(i).equalsIgnoreCase(word);
    }
}
