package io.mclb.radius.lb;

import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.ProbeConfig;
import io.mclb.config.ProbeRef;
import io.mclb.config.RealConfig;
import io.mclb.config.ServerFarmConfig;
import io.mclb.config.SourceRef;
import io.mclb.config.VirtualServerConfig;
import io.mclb.service.ConfigSyntax.ErrorSink;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Which of a {@code service radius} virtual server's two modes the configuration asks for, and
 * the rules of each (radius/README.md "Pass-through").
 *
 * <p>A virtual server is <em>pass-through</em>, as IOS SLB balances RADIUS, when mclb holds no
 * secret for it: no {@code mclb radius client} line exists and no real of its farms (farm and
 * backup farm) has {@code mclb radius key}. Requests and answers then cross mclb unchanged and
 * the AAA servers verify with the NAS's secret. Otherwise it is the <em>re-signing proxy</em>,
 * which needs both sides' secrets: every real keyed, and client lines for the NASes. A half of
 * each (some reals keyed, or client lines with unkeyed reals) would silently serve some requests
 * one way and break the others, so it is an error naming each real that does not fit.
 *
 * <p>Stateless; runs at validation and when the settings are resolved, never on the data path.
 */
final class PassThroughRule {
    private PassThroughRule() {
    }

    /** Whether {@code v} (a {@code service radius} virtual server) forwards without secrets. */
    static boolean passThrough(MclbConfig c, VirtualServerConfig v) {
        if (!c.records(RadiusLines.Client.class).isEmpty()) {
            return false;
        }
        for (RealConfig r : reals(c, v)) {
            if (r.record(RadiusLines.RealKey.class) != null) {
                return false;
            }
        }
        return true;
    }

    /** The reals of the farms {@code v} names (a route-map farm has none, IOS rule). */
    static List<RealConfig> reals(MclbConfig c, VirtualServerConfig v) {
        List<RealConfig> out = new ArrayList<>();
        for (String name : new String[] {v.farm(), v.backupFarm()}) {
            ServerFarmConfig f = name == null ? null : c.farms().get(name);
            if (f != null) {
                out.addAll(f.reals());
            }
        }
        return out;
    }

    /**
     * The rules of both modes for one radius virtual server: each real that does not fit the
     * mode is an error at its line; with pass-through, every feature that needs a secret is an
     * error at its line, and the virtual server draws one warning saying what the AAA servers
     * must be configured with. A line already in {@code reported} (a farm two virtual servers
     * share) is not reported again.
     */
    static void validate(MclbConfig c, VirtualServerConfig v, ErrorSink errors, Set<SourceRef> reported) {
        boolean clientLines = !c.records(RadiusLines.Client.class).isEmpty();
        List<RealConfig> keyed = new ArrayList<>();
        List<RealConfig> unkeyed = new ArrayList<>();
        for (RealConfig r : reals(c, v)) {
            (r.record(RadiusLines.RealKey.class) != null ? keyed : unkeyed).add(r);
        }
        if (!clientLines && keyed.isEmpty()) {
            passThroughRules(c, v, errors, reported);
            return;
        }
        for (RealConfig r : unkeyed) {
            if (!reported.add(r.source())) {
                continue;
            }
            String why = !keyed.isEmpty()
                    ? "real " + keyed.get(0).address().getHostAddress() + " of vserver " + v.name() + "'s farms has one"
                    : "'mclb radius client' lines make mclb a re-signing proxy";
            errors.error(r.source(), "real " + r.address().getHostAddress() + " serves RADIUS for vserver " + v.name()
                    + " and needs its shared secret: 'mclb radius key 0|7 SECRET' (" + why + "); allowed: a key on"
                    + " every real (re-signing proxy), or no key on any real and no 'mclb radius client' line"
                    + " (pass-through, as IOS SLB)");
        }
        if (!clientLines && v.record(RadiusLines.LocalAck.class) == null) {
            errors.warning(v.source(), "vserver " + v.name() + ": no 'mclb radius client IP MASK key ...' line: every"
                    + " RADIUS request will be dropped (radius_unknown_client); remove the reals' 'mclb radius key'"
                    + " lines for pass-through");
        }
    }

    private static void passThroughRules(MclbConfig c, VirtualServerConfig v, ErrorSink errors, Set<SourceRef> reported) {
        for (ExtensionLine x : v.extensions()) {
            if (x.record() instanceof RadiusLines.Inject i) {
                errors.error(x.source(), "'radius inject " + (i.auth() ? "auth" : "acct") + " vsa cisco' needs the"
                        + " secrets of the NASes and AAA servers (the request is changed, so it must be re-signed),"
                        + " and vserver " + v.name() + " is pass-through: add 'mclb radius client ... key' lines and"
                        + " 'mclb radius key' on every real, or remove this line");
            }
        }
        for (String name : new String[] {v.farm(), v.backupFarm()}) {
            ServerFarmConfig f = name == null ? null : c.farms().get(name);
            if (f == null) {
                continue;
            }
            for (ProbeRef ref : f.records(ProbeRef.class)) {
                ProbeConfig p = c.probes().get(ref.name());
                if (p != null && RadiusProbe.TYPE.equals(p.type()) && reported.add(ref.source())) {
                    errors.error(ref.source(), "probe " + p.name() + " (radius) signs its requests with each real's"
                            + " 'mclb radius key', and the reals of serverfarm " + f.name() + " have none (vserver "
                            + v.name() + " is pass-through): use another probe type, or key every real");
                }
            }
        }
        String local = v.record(RadiusLines.LocalAck.class) == null ? ""
                : "; Accounting-Requests are answered by mclb with the local-ack key";
        errors.warning(v.source(), "vserver " + v.name() + " is RADIUS pass-through (no 'mclb radius client' line, no"
                + " 'mclb radius key' on its reals): requests reach the AAA servers unchanged from this host's own"
                + " address, so every AAA server must list that address as a client with the NASes' shared secret"
                + " (one secret for all NASes behind mclb)" + local + "; for per-NAS secrets configure"
                + " 'mclb radius client IP MASK key ...' and 'mclb radius key ...' on every real");
    }
}
