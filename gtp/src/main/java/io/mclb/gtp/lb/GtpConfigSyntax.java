package io.mclb.gtp.lb;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.ConfigBlock;
import io.mclb.config.ConfigLine;
import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.PredictorKind;
import io.mclb.config.ServerFarmConfig;
import io.mclb.config.VirtualServerConfig;
import io.mclb.gtp.Tbcd;
import io.mclb.gtp.v0.TidLayout;
import io.mclb.service.ConfigSyntax;

import java.util.List;

/**
 * The GTP configuration lines (gtp/README.md lists them with defaults), read once into
 * {@link GtpLines} records:
 * <ul>
 * <li>vserver: {@code sticky gtp imsi [group N]}, {@code idle gtp request S}, {@code idle gtp imsi S},
 *     {@code gtp notification cac [N]}, {@code client gtp carrier-code CODE}, {@code gtp v0-tid osmo|gsm},
 *     {@code gtp signalling vip};</li>
 * <li>serverfarm: {@code failaction gtp purge}.</li>
 * </ul>
 * The {@code gtp-echo} probe type is {@link GtpEchoProbe}. Rules checked in {@link #validate}: a
 * {@code service gtp} virtual server (no inspection) balances only with weighted round robin
 * (IOS); {@code client gtp carrier-code} needs {@code gtp-inspect}; GTP vserver lines only on GTP
 * virtual servers; {@code gtp signalling vip} as {@link SignallingVipRules} says. Stateless.
 */
public final class GtpConfigSyntax implements ConfigSyntax {
    public static final String OWNER = "gtp";
    public static final String SERVICE_PLAIN = "gtp";
    public static final String SERVICE_INSPECT = "gtp-inspect";
    /** GTPv1-C and GTPv2-C (29.060 / 29.274). */
    public static final int GTP_C_PORT = 2123;
    /** GTPv0 (GSM 09.60). */
    public static final int GTP_V0_PORT = 3386;

    @Override
    public String owner() {
        return OWNER;
    }

    @Override
    public List<String> services() {
        return List.of(SERVICE_PLAIN, SERVICE_INSPECT);
    }

    /** IOS {@code virtual IP udp 0 service gtp}: GTPv1/v2-C on 2123 and GTPv0 on 3386, one virtual server. */
    @Override
    public List<Integer> allPorts(String service) {
        return List.of(GTP_C_PORT, GTP_V0_PORT);
    }

    @Override
    public List<String> keywords(ConfigBlock block) {
        return switch (block) {
            case VSERVER -> List.of("gtp");
            case SERVERFARM -> List.of("failaction");
            default -> List.of();
        };
    }

    @Override
    public Claim claimLine(ConfigBlock block, ConfigLine line) throws BadLine {
        return switch (block) {
            case VSERVER -> vserverLine(line);
            case SERVERFARM -> farmLine(line);
            case GLOBAL -> globalLine(line);
            default -> Claim.notMine();
        };
    }

    /** {@code [no] ip slb timers gtp gsn S}: the GSN idle timer (20..65535 s; {@code no} restores the default). */
    private static Claim globalLine(ConfigLine l) throws BadLine {
        int i = l.is(0, "no") ? 1 : 0;
        if (!(l.is(i, "ip") && l.is(i + 1, "slb") && l.is(i + 2, "timers") && l.is(i + 3, "gtp"))) {
            return Claim.notMine();
        }
        List<String> t = l.tokens();
        if (!l.is(i + 4, "gsn")) {
            throw new BadLine("expected 'ip slb timers gtp gsn SECONDS'");
        }
        if (i == 1) {
            Args.end(t, 4 + i, "no ip slb timers gtp gsn");
            return Claim.of(new GtpLines.GsnTimer(GsnTable.DEFAULT_IDLE_SECONDS));
        }
        int s = Args.integer(t, 5, "ip slb timers gtp gsn", 20, 65535);
        Args.end(t, 5, "ip slb timers gtp gsn " + t.get(5));
        return Claim.of(new GtpLines.GsnTimer(s));
    }

    private static Claim vserverLine(ConfigLine l) throws BadLine {
        List<String> t = l.tokens();
        if (!l.is(1, "gtp")) {
            return l.is(0, "gtp") ? gtpLine(l) : Claim.notMine();
        }
        switch (l.word(0)) {
            case "sticky" -> {
                if (!l.is(2, "imsi") || !(t.size() == 3 || (t.size() == 5 && l.is(3, "group")))) {
                    throw new BadLine("expected 'sticky gtp imsi [group N]'");
                }
                return Claim.of(new GtpLines.StickyImsi(
                        t.size() == 5 ? Args.integer(t, 4, "sticky gtp imsi group", 0, 32767) : 0));
            }
            case "idle" -> {
                if (t.size() != 4 || !(l.is(2, "request") || l.is(2, "imsi"))) {
                    throw new BadLine("expected 'idle gtp request SECONDS' or 'idle gtp imsi SECONDS'");
                }
                int s = Args.integer(t, 3, "idle gtp " + t.get(2), 1, 65535);
                return Claim.of(l.is(2, "request") ? new GtpLines.IdleRequest(s) : new GtpLines.IdleImsi(s));
            }
            case "client" -> {
                if (t.size() != 4 || !l.is(2, "carrier-code")) {
                    throw new BadLine("expected 'client gtp carrier-code CODE' (MCC+MNC digits)");
                }
                String code = t.get(3);
                if (!code.matches("[0-9]{3,15}")) {
                    throw new BadLine("client gtp carrier-code '" + code
                            + "': expected 3..15 decimal digits (the MCC+MNC prefix of the IMSI)");
                }
                return Claim.of(new GtpLines.CarrierCode(code, Tbcd.pack(Long.parseLong(code), code.length())));
            }
            default -> {
                return Claim.notMine();
            }
        }
    }

    private static Claim gtpLine(ConfigLine l) throws BadLine {
        List<String> t = l.tokens();
        if (l.is(1, "notification")) {
            if (!l.is(2, "cac") || t.size() > 4) {
                throw new BadLine("expected 'gtp notification cac [REASSIGN-COUNT]'");
            }
            return Claim.of(new GtpLines.CacNotification(t.size() == 4
                    ? Args.integer(t, 3, "gtp notification cac", 1, 5) : GtpVserverSettings.DEFAULT_CAC_REASSIGN));
        }
        if (l.is(1, "v0-tid")) {
            if (t.size() != 3 || !(l.is(2, "osmo") || l.is(2, "gsm"))) {
                throw new BadLine("expected 'gtp v0-tid osmo|gsm'");
            }
            return Claim.of(new GtpLines.V0Tid(l.is(2, "gsm") ? TidLayout.GSM_09_60 : TidLayout.OSMO_GGSN));
        }
        if (l.is(1, "signalling")) {
            if (t.size() != 3 || !l.is(2, "vip")) {
                throw new BadLine("expected 'gtp signalling vip' (the only signalling anchor is the virtual address)");
            }
            return Claim.of(new GtpLines.SignallingVip());
        }
        throw new BadLine("unknown gtp line '" + l.text()
                + "': expected 'gtp notification cac [N]', 'gtp v0-tid osmo|gsm' or 'gtp signalling vip'");
    }

    private static Claim farmLine(ConfigLine l) throws BadLine {
        if (l.is(0, "failaction") && l.is(1, "gtp")) {
            if (l.size() == 3 && l.is(2, "purge")) {
                return Claim.of(new GtpLines.FailactionPurge());
            }
            throw new BadLine("expected 'failaction gtp purge'");
        }
        return Claim.notMine();
    }

    @Override
    public void validate(MclbConfig config, ErrorSink errors) {
        for (VirtualServerConfig v : config.vservers().values()) {
            boolean gtp = SERVICE_PLAIN.equals(v.service()) || SERVICE_INSPECT.equals(v.service());
            for (ExtensionLine x : v.extensions()) {
                if (!x.owner().equals(OWNER)) {
                    continue;
                }
                if (!gtp) {
                    errors.error(x.source(), "'" + x.text() + "' needs 'service gtp' or 'service gtp-inspect' on vserver "
                            + v.name());
                } else if (x.record() instanceof GtpLines.CarrierCode && !SERVICE_INSPECT.equals(v.service())) {
                    errors.error(x.source(), "'" + x.text() + "': carrier-code filtering needs 'service gtp-inspect' on vserver "
                            + v.name() + " (it has 'service gtp', which does not read IMSIs)");
                } else if (x.record() instanceof GtpLines.SignallingVip) {
                    SignallingVipRules.validate(config, v, x, errors);
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
}
