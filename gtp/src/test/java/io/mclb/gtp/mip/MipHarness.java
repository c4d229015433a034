package io.mclb.gtp.mip;

import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.farm.RealServer;
import io.mclb.gtp.PeerHarness;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** An mclb runtime with {@code service ipmobile} in front of {@link FakeHomeAgent}s on loopback, manual clock. */
final class MipHarness extends PeerHarness {
    static final String VS = "HA-DIRECTOR";
    final MipServiceModule module = new MipServiceModule();
    final List<FakeHomeAgent> agents = new ArrayList<>();

    /** Home agents on 127.0.0.2.. (weight 1 each), the VIP on 127.0.0.1. */
    MipHarness(Path dir, int agentCount, String... realLines) throws Exception {
        super(VS);
        StringBuilder reals = new StringBuilder();
        for (int i = 0; i < agentCount; i++) {
            FakeHomeAgent a = new FakeHomeAgent("127.0.0." + (2 + i));
            agents.add(a);
            reals.append(" real ").append(a.address()).append(' ').append(a.port()).append("\n  weight 1\n");
            for (String l : realLines) {
                reals.append("  ").append(l).append('\n');
            }
            reals.append("  inservice\n");
        }
        int port = io.mclb.testing.Ports.freeUdp("127.0.0.1");
        vip = new InetSocketAddress("127.0.0.1", port);
        String cfg = globals(dir)
                + "ip slb serverfarm HA-FARM\n" + reals
                + "ip slb vserver " + VS + "\n"
                + " virtual 127.0.0.1 udp " + port + " service ipmobile\n"
                + " serverfarm HA-FARM\n"
                + " idle ipmobile request 5\n"
                + " inservice\n";
        MclbConfig config = ConfigParser.parse("test.cfg", cfg, dir, Modules.of(module).grammar());
        runtime = MclbRuntime.start(config, Modules.of(module), ServingGate.ALWAYS, clock);
    }

    RealServer real(FakeHomeAgent a) {
        for (RealServer r : runtime.farms().get("HA-FARM").reals()) {
            if (r.port() == a.port() && r.address().getHostAddress().equals(a.address())) {
                return r;
            }
        }
        throw new IllegalArgumentException(a.address());
    }

    @Override
    public void close() throws Exception {
        super.close();
        for (FakeHomeAgent a : agents) {
            a.close();
        }
    }
}
