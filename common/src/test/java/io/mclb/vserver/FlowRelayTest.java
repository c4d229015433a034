package io.mclb.vserver;

import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.farm.RealServer;
import io.mclb.farm.RealState;
import io.mclb.runtime.MclbRuntime;
import io.mclb.testing.FakeUdpReal;
import io.mclb.testing.Metrics;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Plain UDP flow balancing end to end on loopback: real sockets, fake reals on kernel-chosen
 * ports, the runtime built from configuration text, real state driven by a manual clock.
 */
class FlowRelayTest {
    @TempDir
    Path dir;

    private final List<AutoCloseable> closeMe = new ArrayList<>();
    private final ManualClock clock = new ManualClock();
    private MclbRuntime rt;

    @AfterEach
    void tearDown() throws Exception {
        if (rt != null) {
            rt.close();
        }
        for (AutoCloseable c : closeMe) {
            c.close();
        }
    }

    private FakeUdpReal real(String address) throws Exception {
        FakeUdpReal r = new FakeUdpReal(address);
        closeMe.add(r);
        return r;
    }

    private DatagramSocket client(String address) throws Exception {
        DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0));
        closeMe.add(s);
        return s;
    }

    private MclbRuntime start(String config) throws Exception {
        MclbConfig c = ConfigParser.parse("test.cfg", config, dir, List.of());
        rt = MclbRuntime.start(c, Modules.of(), ServingGate.ALWAYS, clock);
        return rt;
    }

    private static String farm(String name, FakeUdpReal[] reals, int[] weights, String realExtra) {
        StringBuilder sb = new StringBuilder("ip slb serverfarm " + name + "\n");
        for (int i = 0; i < reals.length; i++) {
            sb.append(" real ").append(reals[i].address()).append(' ').append(reals[i].port()).append('\n');
            sb.append("  weight ").append(weights[i]).append('\n').append(realExtra).append("  inservice\n");
        }
        return sb.toString();
    }

    private static final InetSocketAddress VIP = new InetSocketAddress("127.0.0.100", 0);

    private static int freePort() throws Exception {
        return io.mclb.testing.Ports.freeUdp("127.0.0.100");
    }

    @Test
    void newFlowsAreSplitInWeightOrderAndAnswersComeFromTheVirtualAddress() throws Exception {
        FakeUdpReal[] reals = {real("127.0.0.11"), real("127.0.0.12"), real("127.0.0.13")};
        int port = freePort();
        start("mclb event-loops 2\n" + farm("ECHO", reals, new int[] {3, 1, 2}, "")
                + "ip slb vserver ECHO-V\n virtual 127.0.0.100 udp " + port + "\n serverfarm ECHO\n idle 30\n inservice\n");
        InetSocketAddress vip = new InetSocketAddress("127.0.0.100", port);
        for (int i = 0; i < 600; i++) {
            DatagramSocket c = client("127.0.0.1");
            DatagramPacket answer = FakeUdpReal.exchange(c, ("flow-" + i).getBytes(), vip, 2000);
            assertThat(answer).as("answer to flow %d", i).isNotNull();
            assertThat(answer.getSocketAddress()).isEqualTo(vip);
            assertThat(new String(answer.getData(), 0, answer.getLength())).isEqualTo("flow-" + i);
            // sockets stay open: a reused ephemeral port would be the same flow, not a new one
        }
        assertThat(reals[0].received()).isEqualTo(300);
        assertThat(reals[1].received()).isEqualTo(100);
        assertThat(reals[2].received()).isEqualTo(200);
        assertThat(Metrics.count(rt.registry(), "mclb.requests", "vserver", "ECHO-V")).isEqualTo(600);
        assertThat(Metrics.count(rt.registry(), "mclb.responses", "vserver", "ECHO-V")).isEqualTo(600);
        RealServer[] rs = rt.farms().get("ECHO").reals();
        for (int i = 0; i < reals.length; i++) {
            assertThat(Metrics.count(rt.registry(), "mclb.real.responses", "real", rs[i].label()))
                    .as("answers of %s", rs[i].label()).isEqualTo(reals[i].received());
        }
    }

    @Test
    void aFlowStaysOnItsRealAndIsForgottenAfterIdle() throws Exception {
        FakeUdpReal[] reals = {real("127.0.0.11"), real("127.0.0.12")};
        int port = freePort();
        start("mclb event-loops 1\n" + farm("F", reals, new int[] {1, 1}, "")
                + "ip slb vserver V\n virtual 127.0.0.100 udp " + port + "\n serverfarm F\n idle 5\n inservice\n");
        InetSocketAddress vip = new InetSocketAddress("127.0.0.100", port);
        DatagramSocket c = client("127.0.0.1");
        for (int i = 0; i < 20; i++) {
            assertThat(FakeUdpReal.exchange(c, new byte[] {1}, vip, 2000)).isNotNull();
        }
        assertThat(reals[0].received() * reals[1].received()).as("one real saw all 20").isZero();
        assertThat(rt.vservers().get("V").flows()).isEqualTo(1);
        RealServer used = reals[0].received() > 0 ? rt.farms().get("F").reals()[0] : rt.farms().get("F").reals()[1];
        assertThat(used.activeConnections()).isEqualTo(1);
        clock.advanceSeconds(6);
        await().atMost(Duration.ofSeconds(10)).until(() -> rt.vservers().get("V").flows() == 0);
        assertThat(used.activeConnections()).isZero();
    }

    @Test
    void eachUpstreamSocketCarriesOneFlowPerRealAndIdleSocketsAreReused() throws Exception {
        FakeUdpReal[] reals = {real("127.0.0.11"), real("127.0.0.12")};
        int port = freePort();
        start("mclb event-loops 1\n" + farm("F", reals, new int[] {1, 1}, "")
                + "ip slb vserver V\n virtual 127.0.0.100 udp " + port + "\n serverfarm F\n idle 5\n inservice\n");
        InetSocketAddress vip = new InetSocketAddress("127.0.0.100", port);
        for (int round = 0; round < 2; round++) {
            reals[0].clearSenderPorts();
            reals[1].clearSenderPorts();
            List<DatagramSocket> clients = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                DatagramSocket c = client("127.0.0.1");
                clients.add(c);
                assertThat(FakeUdpReal.exchange(c, new byte[] {(byte) i}, vip, 2000)).as("flow %d", i).isNotNull();
            }
            // round robin: 200 flows per real, and one socket serves one flow of each real
            assertThat(reals[0].senderPorts()).hasSize(200);
            assertThat(reals[1].senderPorts()).hasSize(200);
            assertThat(reals[0].senderPorts()).containsExactlyInAnyOrderElementsOf(reals[1].senderPorts());
            clock.advanceSeconds(6); // every flow idles out; the sockets they used are closed but one
            await().atMost(Duration.ofSeconds(10)).until(() -> rt.vservers().get("V").flows() == 0);
            for (DatagramSocket c : clients) {
                c.close();
            }
        }
    }

    @Test
    void clientsOutsideTheAclAndOversizedDatagramsAreDroppedAndCounted() throws Exception {
        FakeUdpReal[] reals = {real("127.0.0.11")};
        int port = freePort();
        start("mclb event-loops 1\n" + farm("F", reals, new int[] {8}, "")
                + "ip slb vserver V\n virtual 127.0.0.100 udp " + port + "\n serverfarm F\n"
                + " client 127.0.0.0 255.255.255.0\n client 127.0.0.66 255.255.255.255 exclude\n inservice\n");
        InetSocketAddress vip = new InetSocketAddress("127.0.0.100", port);
        assertThat(FakeUdpReal.exchange(client("127.0.1.5"), new byte[] {1}, vip, 300)).isNull();
        assertThat(FakeUdpReal.exchange(client("127.0.0.66"), new byte[] {1}, vip, 300)).isNull();
        assertThat(FakeUdpReal.exchange(client("127.0.0.1"), new byte[VirtualServer.MAX_DATAGRAM + 500], vip, 300))
                .isNull();
        assertThat(FakeUdpReal.exchange(client("127.0.0.1"), new byte[VirtualServer.MAX_DATAGRAM], vip, 2000))
                .as("the largest allowed datagram passes").isNotNull();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(Metrics.count(rt.registry(), "mclb.drops", "reason", "client_not_allowed")).isEqualTo(2);
            assertThat(Metrics.count(rt.registry(), "mclb.drops", "reason", "oversized")).isEqualTo(1);
        });
        assertThat(reals[0].received()).isEqualTo(1);
    }

    @Test
    void aRealThatStopsAnsweringFailsTrafficMovesAndItIsRetestedAfterRetry() throws Exception {
        FakeUdpReal[] reals = {real("127.0.0.11"), real("127.0.0.12")};
        int port = freePort();
        start("mclb event-loops 1\n" + farm("F", reals, new int[] {1, 1},
                "  reassign 1\n  faildetect numconns 2\n  retry 30\n")
                + "ip slb vserver V\n virtual 127.0.0.100 udp " + port + "\n serverfarm F\n idle 600\n inservice\n");
        InetSocketAddress vip = new InetSocketAddress("127.0.0.100", port);
        RealServer a = rt.farms().get("F").reals()[0];
        reals[0].setSilent(true);
        // flows alternate between the reals; those on the silent one are moved on their next datagram
        List<DatagramSocket> flows = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            flows.add(client("127.0.0.1"));
        }
        for (DatagramSocket f : flows) {
            FakeUdpReal.exchange(f, new byte[] {1}, vip, 200);
        }
        // pipelining is not failure: a second datagram right away does not move a flow
        for (DatagramSocket f : flows) {
            f.send(new DatagramPacket(new byte[] {9}, 1, vip));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> reals[0].received() + reals[1].received() >= 8);
        assertThat(a.failures()).isZero();
        clock.advanceSeconds(3); // silence long enough to count
        for (DatagramSocket f : flows) {
            assertThat(FakeUdpReal.exchange(f, new byte[] {2}, vip, 2000)).as("moved flow answered").isNotNull();
        }
        assertThat(a.state()).isEqualTo(RealState.FAILED);
        assertThat(a.failures()).isEqualTo(2);
        assertThat(Metrics.count(rt.registry(), "mclb.reassignments", "reason", "unanswered")).isEqualTo(2);
        long seenByA = reals[0].received();
        for (int i = 0; i < 6; i++) {
            assertThat(FakeUdpReal.exchange(client("127.0.0.1"), new byte[] {3}, vip, 2000)).isNotNull();
        }
        assertThat(reals[0].received()).as("a failed real gets no new flows").isEqualTo(seenByA);
        // after retry the next new flow is the test connection; the real answers again -> operational
        reals[0].setSilent(false);
        clock.advanceSeconds(31);
        int answered = 0;
        for (DatagramSocket f : flows) { // drain late echoes of the pipelined datagrams
            f.setSoTimeout(50);
            try {
                while (true) {
                    f.receive(new DatagramPacket(new byte[64], 64));
                }
            } catch (java.io.IOException drained) {
                // none left
            }
        }
        for (int i = 0; i < 4; i++) {
            answered += FakeUdpReal.exchange(client("127.0.0.1"), new byte[] {4}, vip, 2000) != null ? 1 : 0;
        }
        assertThat(answered).isEqualTo(4);
        assertThat(reals[0].received()).isGreaterThan(seenByA);
        assertThat(a.state()).isEqualTo(RealState.OPERATIONAL);
    }

    @Test
    void aVirtualServerTakenOutOfServiceDropsAndCountsUntilPutBack() throws Exception {
        FakeUdpReal[] reals = {real("127.0.0.11")};
        int port = freePort();
        String farm = "mclb event-loops 1\n" + farm("F", reals, new int[] {8}, "");
        String vs = "ip slb vserver V\n virtual 127.0.0.100 udp " + port + "\n serverfarm F\n";
        start(farm + vs + " no inservice\n");
        InetSocketAddress vip = new InetSocketAddress("127.0.0.100", port);
        assertThat(rt.vservers().get("V").state()).isEqualTo(VserverState.OUTOFSERVICE);
        assertThat(FakeUdpReal.exchange(client("127.0.0.1"), new byte[] {1}, vip, 300)).isNull();
        // the reply never comes, so the loop may count the drop after the client gives up waiting
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(
                Metrics.count(rt.registry(), "mclb.drops", "reason", "vserver_out_of_service")).isEqualTo(1));
        rt.reload(ConfigParser.parse("test.cfg", farm + vs + " inservice\n", dir, List.of()));
        assertThat(rt.vservers().get("V").state()).isEqualTo(VserverState.OPERATIONAL);
        assertThat(FakeUdpReal.exchange(client("127.0.0.1"), new byte[] {1}, vip, 2000)).isNotNull();
        assertThat(reals[0].received()).isEqualTo(1);
    }

    @Test
    void backupFarmTakesWorkOnlyWhenNoPrimaryRealCan() throws Exception {
        FakeUdpReal primary = real("127.0.0.11");
        FakeUdpReal backup = real("127.0.0.12");
        int port = freePort();
        String head = "mclb event-loops 1\n";
        String backupFarm = farm("B", new FakeUdpReal[] {backup}, new int[] {8}, "");
        String vs = "ip slb vserver V\n virtual 127.0.0.100 udp " + port + "\n serverfarm P backup B\n inservice\n";
        start(head + "ip slb serverfarm P\n real " + primary.address() + " " + primary.port() + "\n  no inservice\n"
                + backupFarm + vs);
        InetSocketAddress vip = new InetSocketAddress("127.0.0.100", port);
        assertThat(FakeUdpReal.exchange(client("127.0.0.1"), new byte[] {1}, vip, 2000)).isNotNull();
        assertThat(backup.received()).isEqualTo(1);
        // the primary comes back in service through a reload: new flows go there
        MclbConfig next = ConfigParser.parse("test.cfg", head + farm("P", new FakeUdpReal[] {primary}, new int[] {8}, "")
                + backupFarm + vs, dir, List.of());
        rt.reload(next);
        assertThat(FakeUdpReal.exchange(client("127.0.0.1"), new byte[] {1}, vip, 2000)).isNotNull();
        assertThat(primary.received()).isEqualTo(1);
        assertThat(backup.received()).isEqualTo(1);
    }
}
