package io.mclb.feedback;

import io.mclb.config.RealConfig;
import io.mclb.farm.RealServer;
import io.mclb.farm.RealState;
import io.mclb.farm.ServerFarm;
import io.mclb.feedback.dfp.DfpAgentServer;
import io.mclb.feedback.dfp.DfpWire;
import io.mclb.feedback.dfp.HostWeight;
import io.mclb.service.ServiceContext;
import io.mclb.vserver.VirtualServer;
import io.mclb.vserver.VserverSnapshot;

import java.net.Inet4Address;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code ip dfp agent NAME} reports: for each virtual server with an IPv4 address (DFP carries
 * IPv4 hosts only), host = the virtual address, port = its port, protocol UDP, bind ID 0, and a
 * weight from its headroom: the sum, over its farm's reals that take new work now (OPERATIONAL),
 * of {@code weight x (1 - conns / maxconns)} ({@code maxconns} unset counts as full headroom). A
 * manager above mclb thus sees a pair with twice the reals as twice the capacity, and one whose
 * reals fill up as shrinking. The primary farm is measured, or the backup farm while no primary
 * real takes work. A virtual server that does not serve here (out of service, HA standby) reports
 * 0, as does one whose last real is gone: managers stop sending it new work at once.
 */
public final class VserverWeights implements DfpAgentServer.WeightSource {
    private final ServiceContext ctx;

    public VserverWeights(ServiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public List<HostWeight> weights() {
        List<HostWeight> out = new ArrayList<>();
        for (VirtualServer v : ctx.vservers().values()) {
            VserverSnapshot s = v.snapshot();
            if (!(s.config().address() instanceof Inet4Address a)) {
                continue;
            }
            int w = v.serving() ? headroom(s) : 0;
            out.add(new HostWeight(HostWeight.ipv4(a), s.config().port(), DfpWire.PROTOCOL_UDP, 0, w));
        }
        return out;
    }

    static int headroom(VserverSnapshot s) {
        double w = headroom(s.farm());
        if (w <= 0 && s.backup() != null) {
            w = headroom(s.backup());
        }
        return (int) Math.min(65535, Math.round(w));
    }

    private static double headroom(ServerFarm f) {
        double sum = 0;
        for (RealServer r : f.reals()) {
            if (r.state() != RealState.OPERATIONAL || r.operWeight() <= 0) {
                continue;
            }
            long max = r.config().maxConns();
            double free = max >= RealConfig.DEFAULT_MAXCONNS ? 1.0
                    : Math.max(0.0, 1.0 - (double) r.activeConnections() / max);
            sum += r.operWeight() * free;
        }
        return sum;
    }
}
