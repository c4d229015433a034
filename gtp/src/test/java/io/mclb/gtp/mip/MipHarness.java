package io.mclb.gtp.mip;

import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.farm.RealServer;
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

/** An mclb runtime with {@code service ipmobile} in front of {@link FakeHomeAgent}s on loopback, manual clock. */
final class MipHarness implements AutoCloseable {
    static final String VS = "HA-DIRECTOR";
    final ManualClock clock = new ManualClock();
    final MipServiceModule module = new MipServiceModule();
    final List<FakeHomeAgent> agents = new ArrayList<>();
    final List<DatagramSocket> clients = new ArrayList<>();
    InetSocketAddress vip;
    MclbRuntime runtime;

    /** Home agents on 127.0.0.2.. (weight 1 each), the VIP on 127.0.0.1. */
    MipHarness(Path dir, int agentCount, String... realLines) throws Exception {
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
        String cfg = "mclb admin 127.0.0.1 " + io.mclb.testing.Ports.freeUdp("127.0.0.1") + "\n"
                + "mclb data-dir " + dir + "\n"
                + "mclb sticky entries 10000\n"
                + "mclb event-loops 1\n"
                + "ip slb serverfarm HA-FARM\n" + reals
                + "ip slb vserver " + VS + "\n"
                + " virtual 127.0.0.1 udp " + port + " service ipmobile\n"
                + " serverfarm HA-FARM\n"
                + " idle ipmobile request 5\n"
                + " inservice\n";
        runtime = MclbRuntime.start(parse(dir, cfg), Modules.of(module), ServingGate.ALWAYS, clock);
    }

    MclbConfig parse(Path dir, String text) throws Exception {
        return ConfigParser.parse("test.cfg", text, dir, Modules.of(module).grammar());
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

    /** One datagram, checked to come from the virtual address. */
    byte[] receive(DatagramSocket c) throws IOException {
        byte[] buf = new byte[9000];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        c.receive(p);
        if (!vip.equals(p.getSocketAddress())) {
            throw new AssertionError("answer from " + p.getSocketAddress() + ", not the virtual address " + vip);
        }
        return Arrays.copyOf(buf, p.getLength());
    }

    RealServer real(FakeHomeAgent a) {
        for (RealServer r : runtime.farms().get("HA-FARM").reals()) {
            if (r.port() == a.port() && r.address().getHostAddress().equals(a.address())) {
                return r;
            }
        }
        throw new IllegalArgumentException(a.address());
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
        runtime.close();
        for (FakeHomeAgent a : agents) {
            a.close();
        }
    }
}
