package io.mclb.feedback.kalap;

import io.mclb.farm.RealServer;
import io.mclb.farm.RealState;
import io.mclb.farm.ServerFarm;
import io.mclb.feedback.FeedbackSyntax;
import io.mclb.vserver.VirtualServer;
import io.mclb.vserver.VserverSnapshot;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The KAL-AP load of each virtual server and of each {@code kal-ap domain TAG}, computed from the
 * running farms when asked (a scrape, an HTTP check): nothing is cached, so the answer is as fresh
 * as the reals' states.
 *
 * <ul>
 * <li><b>Active</b> real: can take new work now (state OPERATIONAL, weight above 0).
 *     <b>In service</b>: configured {@code inservice}.</li>
 * <li>The farm measured is the primary; when none of its reals is active and a backup farm is
 *     configured, the backup (it is what serves then).</li>
 * <li><b>Absolute</b> mode when the farm has {@code farm-weight} and DFP is on ({@code ip slb dfp}):
 *     the weight sum is the operational weight (the DFP weight, or the static weight while no DFP
 *     weight is reported) of every real that is up (OPERATIONAL, DFP_THROTTLED, MAXCONNS or
 *     MAXCLIENTS); otherwise <b>relative</b>.</li>
 * <li>A virtual server that does not serve here (out of service, HA standby) is offline (255).</li>
 * <li>A tag's load is its most loaded virtual server's: a site serves a domain only as well as its
 *     weakest listener for it.</li>
 * </ul>
 */
public final class KalApLoads {
    private KalApLoads() {
    }

    /** One virtual server's load and how it was reached (for {@code show kal-ap}). */
    public record VserverLoad(String vserver, String tag, int load, KalApLoad.Mode mode, String farm, int active,
                              int inService, long weightSum, int farmWeight, boolean serving) {
        public boolean online() {
            return load < KalApLoad.OFFLINE;
        }
    }

    public static VserverLoad of(VirtualServer v, boolean dfpOn) {
        VserverSnapshot s = v.snapshot();
        String tag = FeedbackSyntax.kalApTag(s.config());
        ServerFarm farm = s.farm();
        if (active(farm) == 0 && s.backup() != null && active(s.backup()) > 0) {
            farm = s.backup();
        }
        int active = active(farm);
        int inService = 0;
        long weightSum = 0;
        for (RealServer r : farm.reals()) {
            inService += r.config().inService() ? 1 : 0;
            weightSum += up(r.state()) ? r.operWeight() : 0;
        }
        int farmWeight = FeedbackSyntax.farmWeight(farm.config());
        boolean absolute = farmWeight > 0 && dfpOn;
        int load = absolute ? KalApLoad.absolute(weightSum, farmWeight) : KalApLoad.relative(active, inService);
        boolean serving = v.serving();
        return new VserverLoad(v.name(), tag, serving ? load : KalApLoad.OFFLINE,
                absolute ? KalApLoad.Mode.ABSOLUTE : KalApLoad.Mode.RELATIVE, farm.name(), active, inService,
                weightSum, farmWeight, serving);
    }

    public static List<VserverLoad> all(Collection<VirtualServer> vservers, boolean dfpOn) {
        List<VserverLoad> out = new ArrayList<>();
        for (VirtualServer v : vservers) {
            out.add(of(v, dfpOn));
        }
        return out;
    }

    /** The load of {@code tag} among {@code loads}: the highest of its virtual servers', or -1 when no virtual server has it. */
    public static int ofTag(List<VserverLoad> loads, String tag) {
        int worst = -1;
        for (VserverLoad l : loads) {
            if (tag.equals(l.tag())) {
                worst = Math.max(worst, l.load());
            }
        }
        return worst;
    }

    private static int active(ServerFarm f) {
        int n = 0;
        for (RealServer r : f.reals()) {
            n += r.state() == RealState.OPERATIONAL && r.operWeight() > 0 ? 1 : 0;
        }
        return n;
    }

    private static boolean up(RealState s) {
        return s == RealState.OPERATIONAL || s == RealState.DFP_THROTTLED || s == RealState.MAXCONNS
                || s == RealState.MAXCLIENTS;
    }
}
