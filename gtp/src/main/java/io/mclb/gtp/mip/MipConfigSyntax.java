package io.mclb.gtp.mip;

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
import io.mclb.service.ConfigSyntax;

import java.util.List;

/**
 * The Home Agent Director's lines (gtp/README.md): {@code service ipmobile} and the vserver line
 * {@code idle ipmobile request S}, read once into {@link MipLines} records.
 *
 * <p>IOS's rules for the Home Agent Director are errors in {@link #validate} (Cisco IOS SLB
 * feature guide): weighted round robin only (a farm with another predictor may be named but the
 * virtual server cannot be put in service), no sticky, no bind ID, no client rules, and no
 * {@code replicate casa} (IOS has no stateful backup for this service). Stateless.
 */
public final class MipConfigSyntax implements ConfigSyntax {
    public static final String OWNER = "mip";
    public static final String SERVICE = "ipmobile";

    @Override
    public String owner() {
        return OWNER;
    }

    @Override
    public List<String> services() {
        return List.of(SERVICE);
    }

    @Override
    public Claim claimLine(ConfigBlock block, ConfigLine l) throws BadLine {
        if (block != ConfigBlock.VSERVER || !l.is(0, "idle") || !l.is(1, SERVICE)) {
            return Claim.notMine();
        }
        if (l.size() != 4 || !l.is(2, "request")) {
            throw new BadLine("expected 'idle ipmobile request SECONDS' (1..65535)");
        }
        return Claim.of(new MipLines.IdleRequest(Args.integer(l.tokens(), 3, "idle ipmobile request", 1, 65535)));
    }

    @Override
    public void validate(MclbConfig config, ErrorSink errors) {
        for (VirtualServerConfig v : config.vservers().values()) {
            boolean mip = SERVICE.equals(v.service());
            for (ExtensionLine x : v.extensions()) {
                if (x.owner().equals(OWNER) && !mip) {
                    errors.error(x.source(), "'" + x.text() + "' needs 'service ipmobile' on vserver " + v.name());
                }
            }
            if (mip) {
                rules(config, v, errors);
            }
        }
    }

    private static void rules(MclbConfig config, VirtualServerConfig v, ErrorSink errors) {
        String who = "vserver " + v.name() + " (service ipmobile): ";
        for (String name : new String[] {v.farm(), v.backupFarm()}) {
            ServerFarmConfig f = name == null ? null : config.farms().get(name);
            if (f == null) {
                continue;
            }
            if (f.predictor() != PredictorKind.ROUNDROBIN) {
                String m = who + "the Home Agent Director balances with weighted round robin only, but serverfarm "
                        + f.name() + " has 'predictor " + f.predictor().keyword() + "' (" + f.source()
                        + "): use 'predictor roundrobin'";
                if (v.inService()) {
                    errors.error(v.source(), m + "; it cannot be put in service (IOS)");
                } else {
                    errors.warning(v.source(), m + "; 'inservice' will be refused");
                }
            }
            for (SourceRef at : BlockLines.inFarm(config, f, "bindid")) {
                errors.error(at, who + "the Home Agent Director does not support bind IDs (IOS): remove 'bindid' "
                        + "from serverfarm " + f.name());
            }
        }
        if (v.sticky() != null) {
            errors.error(v.source(), who + "the Home Agent Director takes no sticky (IOS): a registration follows "
                    + "its binding or its Home Agent field instead; remove the 'sticky' line");
        }
        if (!v.clients().isEmpty()) {
            errors.error(v.source(), who + "the Home Agent Director takes no client rules (IOS): remove the "
                    + "'client' lines");
        }
        for (SourceRef at : BlockLines.inVserver(config, v, "replicate")) {
            errors.error(at, who + "IOS has no stateful backup for the Home Agent Director, so 'replicate casa' "
                    + "is not allowed here (bindings are rebuilt by the mobile nodes' renewals, which name their "
                    + "home agent)");
        }
    }
}
