package io.mclb.ha;

import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.VirtualServerConfig;
import io.mclb.ha.replication.ReplicationConfig;
import io.mclb.service.ConfigSyntax;

import java.util.Map;

/**
 * IOS SLB's rule for {@code replicate casa} (stateful backup) on GTP, checked at {@code mclb check}:
 * IOS supports it for GPRS load balancing only with GTP cause code inspection (IOS SLB feature guide,
 * 12.2(14)ZA: "GPRS load balancing without GTP cause code inspection ... Does not support stateful
 * backup"; with inspection: "Supports stateful backup"). The Home Agent Director's rule (seed 001:
 * "The Home Agent Director do not support stateful backup") is the mobility module's own
 * ({@code MipConfigSyntax}), like its other IOS rules. The service name is the gtp module's keyword,
 * spelled here because ha depends on common only.
 */
final class StatefulBackupRules {
    private static final Map<String, String> REFUSED = Map.of(
            "gtp", "IOS supports stateful backup for GTP only with cause code inspection: "
                    + "use 'service gtp-inspect', or drop the replicate casa line");

    private StatefulBackupRules() {
    }

    static void validate(MclbConfig config, ConfigSyntax.ErrorSink errors) {
        for (VirtualServerConfig v : config.vservers().values()) {
            String why = v.service() == null ? null : REFUSED.get(v.service());
            if (why == null) {
                continue;
            }
            for (ExtensionLine x : v.extensions()) {
                if (x.record() instanceof ReplicationConfig) {
                    errors.error(x.source(), "vserver " + v.name() + ": replicate casa on service " + v.service()
                            + ": " + why);
                }
            }
        }
    }
}
