package io.mclb.gtp.asn;

import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.farm.RealServer;
import io.mclb.gtp.lb.GtpServiceModule;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import io.mclb.time.ManualClock;
import io.micrometer.core.instrument.Counter;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** An mclb runtime with {@code service asn} in front of {@link FakeAsnGateway}s on loopback, manual clock. */
final class AsnHarness implements AutoCloseable {
    static final String VS = "ASN-R6";
    final ManualClock clock = new ManualClock();
    final AsnServiceModule module = new AsnServiceModule();
    final GtpServiceModule gtp = new GtpServiceModule();
    final List<FakeAsnGateway> gateways = new ArrayList<>();
    final List<DatagramSocket> clients = new ArrayList<>();
    final Path dir;
    final String config;
    InetSocketAddress vip;
    MclbRuntime runtime;

    /** @param farmLines lines of the farm before its reals, e.g. "predictor leastconns" */
    AsnHarness(Path dir, int count, String vserverLines, String... farmLines) throws Exception {
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
        config = "mclb admin 127.0.0.1 " + io.mclb.testing.Ports.freeUdp("127.0.0.1") + "\n"
                + "mclb data-dir " + dir + "\n"
                + "mclb sticky entries 10000\n"
                + "mclb event-loops 1\n" + farm
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

    DatagramSocket client(String address) throws IOException {
        DatagramSocket s = new DatagramSocket(0, InetAddress.getByName(address));
        s.setSoTimeout(3000);
        clients.add(s);
        return s;
    }

    void send(DatagramSocket c, byte[] b) throws IOException {
        c.send(new DatagramPacket(b, b.length, vip));
    }

    byte[] receive(DatagramSocket c) throws IOException {
        byte[] buf = new byte[9000];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        c.receive(p);
        if (!vip.equals(p.getSocketAddress())) {
            throw new AssertionError("answer from " + p.getSocketAddress() + ", not the virtual address " + vip);
        }
        return Arrays.copyOf(buf, p.getLength());
    }

    RealServer real(FakeAsnGateway g) {
        for (RealServer r : runtime.farms().get("ASNGW-FARM").reals()) {
            if (r.port() == g.port() && r.address().getHostAddress().equals(g.address())) {
                return r;
            }
        }
        throw new IllegalArgumentException(g.address());
    }

    double counter(String name, String... tags) {
        return runtime.registry().find(name).tags(tags).counters().stream().mapToDouble(Counter::count).sum();
    }

    double drops(String reason) {
        return counter("mclb.drops", "vserver", VS, "reason", reason);
    }

    @Override
    public void close() throws Exception {
        clients.forEach(DatagramSocket::close);
        if (runtime != null) {
            runtime.close();
        }
        for (FakeAsnGateway g : gateways) {
            g.close();
        }
    }
}
