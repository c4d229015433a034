package io.mclb.vserver;

import io.mclb.config.ConfigParser;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import io.mclb.testing.FakeUdpReal;
import io.mclb.testing.Metrics;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code synguard} on a plain UDP virtual server: a new flow is a new session of its client address. */
class FlowSynGuardTest {
    @TempDir
    Path dir;
    private final List<AutoCloseable> closeMe = new ArrayList<>();
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

    private DatagramSocket client(String address) throws Exception {
        DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0));
        closeMe.add(s);
        return s;
    }

    private double rateLimited() {
        return Metrics.count(rt.registry(), "mclb.drops", "vserver", "V", "reason", "client_rate_limited");
    }

    @Test
    void aClientOpensAtMostNFlowsPerIntervalAndItsOpenFlowsAndOtherClientsAreNotLimited() throws Exception {
        FakeUdpReal real = new FakeUdpReal("127.0.0.11");
        closeMe.add(real);
        int port = io.mclb.testing.Ports.freeUdp("127.0.0.100");
        String cfg = "mclb data-dir " + dir + "\nmclb event-loops 1\nip slb serverfarm F\n real " + real.address() + " "
                + real.port() + "\n  inservice\nip slb vserver V\n virtual 127.0.0.100 udp " + port
                + "\n serverfarm F\n synguard 3 1000\n inservice\n";
        rt = MclbRuntime.start(ConfigParser.parse("t.cfg", cfg, dir, Modules.of().grammar()), Modules.of(),
                ServingGate.ALWAYS, new ManualClock());
        InetSocketAddress vip = new InetSocketAddress("127.0.0.100", port);
        List<DatagramSocket> flows = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            DatagramSocket c = client("127.0.0.1");
            flows.add(c);
            boolean answered = FakeUdpReal.exchange(c, ("flow-" + i).getBytes(), vip, i < 3 ? 3000 : 200) != null;
            assertThat(answered).as("flow %d", i).isEqualTo(i < 3);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> rateLimited() == 3);
        assertThat(FakeUdpReal.exchange(flows.get(0), "again".getBytes(), vip, 3000)).as("an open flow").isNotNull();
        for (int i = 0; i < 3; i++) {
            assertThat(FakeUdpReal.exchange(client("127.0.0.2"), "other".getBytes(), vip, 3000)).isNotNull();
        }
        assertThat(rateLimited()).isEqualTo(3);
    }
}
