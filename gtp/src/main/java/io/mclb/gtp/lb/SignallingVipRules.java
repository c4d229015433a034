package io.mclb.gtp.lb;

import io.mclb.config.Args;
import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.RealConfig;
import io.mclb.config.ServerFarmConfig;
import io.mclb.config.VirtualServerConfig;
import io.mclb.service.ConfigSyntax;

/**
 * What {@code mclb check} requires of a virtual server with {@code gtp signalling vip}, each refusal
 * saying why the mode cannot work there:
 * <ul>
 * <li>{@code service gtp-inspect}: only inspection reads the create answers, and the mapping from
 *     mclb's TEID back to the GGSN's is learnt from them;</li>
 * <li>a specific virtual address: it is what the answers name as the GGSN's signalling address;</li>
 * <li>every real of its farms in the address family of the virtual address: the rewrite is done
 *     in place, and a GSN Address or F-TEID would change length if the family changed.</li>
 * </ul>
 * GTPv0 works in this mode (the GGSN's signalling address becomes the virtual address; v0
 * follow-ups are routed by their TID, which the subscriber side chose, so the GGSN's flow labels
 * pass unchanged and cannot collide).
 */
final class SignallingVipRules {
    private SignallingVipRules() {
    }

    static void validate(MclbConfig config, VirtualServerConfig v, ExtensionLine x, ConfigSyntax.ErrorSink errors) {
        if (!GtpConfigSyntax.SERVICE_INSPECT.equals(v.service())) {
            errors.error(x.source(), "'" + x.text() + "' needs 'service gtp-inspect' on vserver " + v.name()
                    + " (it has 'service " + v.service() + "', which does not read create answers, so mclb could not"
                    + " learn the GGSN TEIDs to map its own back to)");
            return;
        }
        if (v.address().isAnyLocalAddress()) {
            errors.error(x.source(), "'" + x.text() + "' needs a specific virtual address on vserver " + v.name()
                    + " (" + Args.text(v.address()) + " cannot stand in for a GGSN's signalling address)");
            return;
        }
        int family = v.address().getAddress().length;
        for (String name : new String[] {v.farm(), v.backupFarm()}) {
            ServerFarmConfig farm = name == null ? null : config.farms().get(name);
            if (farm == null) {
                continue;
            }
            for (RealConfig r : farm.reals()) {
                if (r.address().getAddress().length != family) {
                    errors.error(x.source(), "'" + x.text() + "' on vserver " + v.name() + " (virtual address "
                            + Args.text(v.address()) + "): real " + Args.text(r.address()) + " of serverfarm "
                            + farm.name() + " (" + r.source() + ") is of the other address family; the GSN Address"
                            + " and F-TEID are rewritten in place, so every GGSN must use the family of the virtual address");
                }
            }
        }
    }
}
