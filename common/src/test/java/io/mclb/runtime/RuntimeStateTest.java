package io.mclb.runtime;

import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.farm.RealServer;
import io.mclb.sticky.StickyKind;
import io.mclb.testing.FakeUdpReal;
import io.mclb.time.ManualClock;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** State that must survive: sticky entries across restarts, flows and entries across reloads. */
class RuntimeStateTest {
    @TempDir
    Path dir;

    private final List<AutoCloseable> closeMe = new ArrayList<>();
    private final ManualClock clock = new ManualClock();
    private FakeUdpReal a;
    private FakeUdpReal b;
    private int port;

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : closeMe) {
            c.close();
        }
    }

    private void reals() throws Exception {
        a = new FakeUdpReal("127.0.0.11");
        b = new FakeUdpReal("127.0.0.12");
        closeMe.add(a);
        closeMe.add(b);
        port = io.mclb.testing.Ports.freeUdp("127.0.0.100");
    }

    private String config(int weightA, String vserverExtra) {
        return "mclb event-loops 1\nmclb sticky entries 10000\n"
                + "ip slb serverfarm F\n real " + a.address() + " " + a.port() + "\n  weight " + weightA
                + "\n  inservice\n real " + b.address() + " " + b.port() + "\n  weight 1\n  inservice\n"
                + "ip slb vserver V\n virtual 127.0.0.100 udp " + port + "\n serverfarm F\n idle 600\n" + vserverExtra
                + " inservice\n";
    }

    private MclbRuntime start(String text) throws Exception {
        MclbConfig c = ConfigParser.parse("test.cfg", text, dir, List.of());
        return MclbRuntime.start(c, Modules.of(), ServingGate.ALWAYS, clock);
    }

    private DatagramSocket client(String address) throws Exception {
        DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0));
        closeMe.add(s);
        return s;
    }

    private InetSocketAddress vip() {
        return new InetSocketAddress("127.0.0.100", port);
    }

    @Test
    void clientIpStickySendsEveryFlowOfAClientToOneRealAlsoAfterARestart() throws Exception {
        reals();
        String cfg = config(1, " sticky 300\n");
        List<String> clients = List.of("127.0.0.21", "127.0.0.22", "127.0.0.23", "127.0.0.24");
        Map<String, Long> realOf = new java.util.HashMap<>();
        try (MclbRuntime rt = start(cfg)) {
            for (String c : clients) {
                for (int flow = 0; flow < 3; flow++) {
                    long beforeA = a.received();
                    assertThat(FakeUdpReal.exchange(client(c), new byte[] {1}, vip(), 2000)).isNotNull();
                    long real = a.received() > beforeA ? 0 : 1;
                    assertThat(realOf.computeIfAbsent(c, x -> real)).as("client %s flow %d", c, flow).isEqualTo(real);
                }
            }
            assertThat(realOf.values()).as("clients spread over both reals").contains(0L, 1L);
            assertThat(rt.stickyTable().size(StickyKind.CLIENT_IP)).isEqualTo(clients.size());
        }
        // a new process (here: a new runtime on the same data directory) keeps the entries
        try (MclbRuntime rt = start(cfg)) {
            assertThat(rt.stickyTable().size(StickyKind.CLIENT_IP)).isEqualTo(clients.size());
            for (String c : clients) {
                long beforeA = a.received();
                assertThat(FakeUdpReal.exchange(client(c), new byte[] {2}, vip(), 2000)).isNotNull();
                long real = a.received() > beforeA ? 0 : 1;
                assertThat(real).as("client %s after restart", c).isEqualTo(realOf.get(c));
            }
            RealServer ra = rt.farms().get("F").reals()[0];
            long expectedClients = realOf.values().stream().filter(r -> r == 0).count();
            assertThat(ra.clients()).as("client counts rebuilt from the table").isEqualTo(expectedClients);
        }
    }

    @Test
    void reloadKeepsFlowsRealStateAndStickyEntriesOfUnchangedObjects() throws Exception {
        reals();
        try (MclbRuntime rt = start(config(8, " sticky 300\n"))) {
            DatagramSocket c = client("127.0.0.31");
            assertThat(FakeUdpReal.exchange(c, new byte[] {1}, vip(), 2000)).isNotNull();
            boolean onA = a.received() == 1;
            RealServer before = rt.farms().get("F").reals()[onA ? 0 : 1];
            long entries = rt.stickyTable().size();
            // change a weight and add a client rule: the listener, the flow and the entry stay
            List<String> notes = rt.reload(ConfigParser.parse("test.cfg",
                    config(3, " sticky 300\n client 127.0.0.0 255.255.255.0\n"), dir, List.of()));
            assertThat(notes).isEmpty();
            assertThat(rt.farms().get("F").reals()[onA ? 0 : 1]).as("same real object").isSameAs(before);
            assertThat(rt.farms().get("F").reals()[0].config().weight()).isEqualTo(3);
            assertThat(rt.vservers().get("V").flows()).isEqualTo(1);
            assertThat(before.activeConnections()).isEqualTo(1);
            assertThat(rt.stickyTable().size()).isEqualTo(entries);
            for (int i = 0; i < 5; i++) {
                assertThat(FakeUdpReal.exchange(c, new byte[] {2}, vip(), 2000)).isNotNull();
            }
            assertThat(onA ? a.received() : b.received()).as("the flow stayed on its real").isEqualTo(6);
            assertThat(onA ? b.received() : a.received()).isZero();
            // the new client rule is in force for new flows
            assertThat(FakeUdpReal.exchange(client("127.0.1.9"), new byte[] {3}, vip(), 300)).isNull();
        }
    }

    @Test
    void virtualServersInOneStickyGroupShareOneTable() throws Exception {
        reals();
        int port2;
        port2 = io.mclb.testing.Ports.freeUdp("127.0.0.100");
        String cfg = config(1, " sticky 300 group 7\n")
                + "ip slb vserver V2\n virtual 127.0.0.100 udp " + port2 + "\n serverfarm F\n sticky 300 group 7\n inservice\n";
        try (MclbRuntime rt = start(cfg)) {
            for (String c : List.of("127.0.0.41", "127.0.0.42", "127.0.0.43", "127.0.0.44")) {
                long beforeA = a.received();
                assertThat(FakeUdpReal.exchange(client(c), new byte[] {1}, vip(), 2000)).isNotNull();
                boolean onA = a.received() > beforeA;
                beforeA = a.received();
                assertThat(FakeUdpReal.exchange(client(c), new byte[] {1}, new InetSocketAddress("127.0.0.100", port2),
                        2000)).isNotNull();
                assertThat(a.received() > beforeA).as("client %s on the second vserver", c).isEqualTo(onA);
            }
            assertThat(rt.stickyTable().size(StickyKind.CLIENT_IP)).as("one entry per client, shared").isEqualTo(4);
        }
    }

    @Test
    void aReloadThatMovesTheVirtualServerRebindsIt() throws Exception {
        reals();
        try (MclbRuntime rt = start(config(8, ""))) {
            assertThat(FakeUdpReal.exchange(client("127.0.0.1"), new byte[] {1}, vip(), 2000)).isNotNull();
            int old = port;
            port = io.mclb.testing.Ports.freeUdp("127.0.0.100");
            rt.reload(ConfigParser.parse("test.cfg", config(8, ""), dir, List.of()));
            assertThat(FakeUdpReal.exchange(client("127.0.0.1"), new byte[] {1}, vip(), 2000)).isNotNull();
            assertThat(FakeUdpReal.exchange(client("127.0.0.1"), new byte[] {1},
                    new InetSocketAddress("127.0.0.100", old), 300)).as("old address closed").isNull();
        }
    }
}
