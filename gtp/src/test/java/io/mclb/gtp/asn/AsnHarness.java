package io.mclb.gtp.asn;

import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.farm.RealServer;
import io.mclb.gtp.PeerHarness;
import io.mclb.gtp.lb.GtpServiceModule;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** An mclb runtime with {@code service asn} in front of {@link FakeAsnGateway}s on loopback, manual clock. */
final class AsnHarness extends PeerHarness {
    static final String VS = "ASN-R6";
    final AsnServiceModule module = new AsnServiceModule();
    final GtpServiceModule gtp = new GtpServiceModule();
    final List<FakeAsnGateway> gateways = new ArrayList<>();
    final Path dir;
    final String config;

    /** @param farmLines lines of the farm before its reals, e.g. "predictor leastconns" */
    AsnHarness(Path dir, int count, String vserverLines, String... farmLines) throws Exception {
        super(VS);
        this.dir = dir;
        StringBuilder farm = new StringBuilder("ip slb serverfarm ASNGW-FARM\n");
        for (String l : farmLines) {
            farm.append(' ').append(l).append('\n');
        }
        for (int i = 0; i < count; i++) {
            FakeAsnGateway g = new FakeAsnGateway("127.0.0." + (2 + i));
            gateways.add(g);
            farm.append(" real ").append(g.address()).append(' ').append(g.port())
                    .append("\n  weight 1\n  faildetect numconns 255\n  inservice\n");
        }
        int port = io.mclb.testing.Ports.freeUdp("127.0.0.1");
        vip = new InetSocketAddress("127.0.0.1", port);
        config = globals(dir) + farm
                + "ip slb vserver " + VS + "\n"
                + " virtual 127.0.0.1 udp " + port + " service asn\n"
                + " serverfarm ASNGW-FARM\n" + vserverLines
                + " inservice\n";
        start();
    }

    void start() throws Exception {
        runtime = MclbRuntime.start(parse(config), Modules.of(gtp, module), ServingGate.ALWAYS, clock);
    }

    MclbConfig parse(String text) throws Exception {
        return ConfigParser.parse("test.cfg", text, dir, Modules.of(gtp, module).grammar());
    }

    RealServer real(FakeAsnGateway g) {
        for (RealServer r : runtime.farms().get("ASNGW-FARM").reals()) {
            if (r.port() == g.port() && r.address().getHostAddress().equals(g.address())) {
                return r;
            }
        }
        throw new IllegalArgumentException(g.address());
    }

    @Override
    public void close() throws Exception {
        super.close();
        for (FakeAsnGateway g : gateways) {
            g.close();
        }
    }
}
