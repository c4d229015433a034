package io.mclb.probe;

import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.farm.RealServer;
import io.mclb.farm.RealState;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import io.mclb.testing.Ports;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * 75 reals come up through enhanced bring-up (seed 004) in a running runtime: a reload adds a
 * farm of 75 TCP listeners with a tcp probe; the checks started per 100 ms cycle are counted. No
 * cycle starts more than 50 (the cap), so they do not go all at once, and they do not go one at a
 * time: the first cycle with work starts many; every real gets one bring-up check and comes up.
 * The exact top-up arithmetic (30, 40, 5) is {@link BringUpGateTest}'s.
 */
class EnhancedBringUpTest {
    private static final int REALS = 75;

    @TempDir
    Path dir;
    private MclbRuntime rt;
    private final List<ServerSocket> listeners = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        if (rt != null) {
            rt.close();
        }
        for (ServerSocket s : listeners) {
            s.close();
        }
    }

    @Test
    void seventyFiveRealsComeUpAtMostFiftyPerCycle() throws Exception {
        InetAddress a = InetAddress.getByName("127.0.0.41");
        StringBuilder reals = new StringBuilder();
        for (int i = 0; i < REALS; i++) {
            ServerSocket s = new ServerSocket(Ports.freeTcp("127.0.0.41"), 50, a);
            listeners.add(s);
            reals.append(" real 127.0.0.41 ").append(s.getLocalPort()).append("\n  inservice\n");
        }
        int vport = Ports.freeUdp("127.0.0.100");
        String head = "mclb data-dir " + dir.resolve("data") + "\nmclb event-loops 2\n"
                + "ip slb probe T tcp\n interval 30\n timeout 5\n";
        String vs = "ip slb vserver V\n virtual 127.0.0.100 udp " + vport + "\n serverfarm F\n inservice\n";
        Modules m = Modules.of();
        rt = MclbRuntime.start(parse(head + "ip slb serverfarm F\n real 127.0.0.42 9\n  inservice\n" + vs, m), m,
                ServingGate.ALWAYS, new ManualClock());
        List<int[]> cycles = new CopyOnWriteArrayList<>();
        rt.probeScheduler().observeCycles(started -> {
            if (started[BringUpClass.TCP.ordinal()] + started[BringUpClass.OTHER.ordinal()] > 0) {
                cycles.add(started.clone());
            }
        });

        rt.reload(parse(head + "ip slb serverfarm F\n probe T\n" + reals + vs, m));
        await().atMost(Duration.ofSeconds(30)).until(() -> Arrays.stream(rt.farms().get("F").reals())
                .allMatch(r -> r.state() == RealState.OPERATIONAL));

        int[] tcp = cycles.stream().mapToInt(c -> c[BringUpClass.TCP.ordinal()]).toArray();
        assertThat(Arrays.stream(tcp).sum()).as("one bring-up check per real, cycles %s", Arrays.toString(tcp))
                .isEqualTo(REALS);
        assertThat(Arrays.stream(tcp).max().orElse(0)).as("never more than 50 at once").isLessThanOrEqualTo(50);
        assertThat(tcp.length).as("not all at once").isGreaterThanOrEqualTo(2);
        assertThat(tcp.length).as("not one at a time").isLessThan(REALS / 5);
        assertThat(cycles).allSatisfy(c -> assertThat(c[BringUpClass.OTHER.ordinal()]).isZero());
        RealServer any = rt.farms().get("F").reals()[0];
        assertThat(ProbeScheduler.byProbeAndReal(rt.probeStatus()).get("T/" + any.label()).passes()).isEqualTo(1);
    }

    private MclbConfig parse(String text, Modules m) throws Exception {
        return ConfigParser.parse("t.cfg", text, dir, m.grammar());
    }
}
