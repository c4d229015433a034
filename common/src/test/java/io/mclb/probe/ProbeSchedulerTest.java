package io.mclb.probe;

import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.farm.RealServer;
import io.mclb.farm.RealState;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.Modules;
import io.mclb.service.ProbeFactory;
import io.mclb.service.ServingGate;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The probe framework in a running runtime: the engine owns the probe lines (the farm names its
 * probes before they are defined), runs every probe on every real, and keeps health per probe, so
 * two probes on one real never overwrite each other. A probe type whose verdict the test sets.
 */
class ProbeSchedulerTest {
    private static final Duration WAIT = Duration.ofSeconds(15);
    /** Probe name to whether its checks pass. */
    private static final Map<String, Boolean> PASSES = new ConcurrentHashMap<>();

    @TempDir
    Path dir;
    private MclbRuntime rt;

    @AfterEach
    void stop() {
        if (rt != null) {
            rt.close();
        }
        PASSES.clear();
    }

    /** {@code ip slb probe NAME switch}: passes while {@link #PASSES} says so for the probe. */
    private static final ProbeFactory SWITCH =
            new SwitchProbe((probe, real) -> PASSES.getOrDefault(probe.name(), true));

    private static String config(Path data, boolean withP1) throws Exception {
        int port = io.mclb.testing.Ports.freeUdp("127.0.0.100");
        return "mclb data-dir " + data + "\nmclb event-loops 1\n"
                + "ip slb serverfarm F\n" + (withP1 ? " probe P1\n" : "") + " probe P2\n"
                + " real 127.0.0.11 9001\n  inservice\n"
                + "ip slb probe P1 switch\n interval 1\n faildetect 1\n timeout 1\n"
                + "ip slb probe P2 switch\n interval 1\n faildetect 1\n timeout 1\n"
                + "ip slb vserver V\n virtual 127.0.0.100 udp " + port + "\n serverfarm F\n inservice\n";
    }

    private Modules modules() {
        return new Modules(List.of(), List.of(), List.of(SWITCH), List.of());
    }

    private MclbConfig parse(String text) throws Exception {
        return ConfigParser.parse("t.cfg", text, dir, modules().grammar());
    }

    private RealServer real() {
        return rt.farms().get("F").reals()[0];
    }

    private void awaitState(RealState s, List<String> failing) {
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(real().state()).isEqualTo(s);
            assertThat(real().failingProbes()).isEqualTo(failing);
        });
    }

    @Test
    void aRealIsProbeFailedWhileAnyOfItsProbesFailsAndARemovedProbeReleasesIt() throws Exception {
        Path data = dir.resolve("data");
        rt = MclbRuntime.start(parse(config(data, true)), modules(), ServingGate.ALWAYS, new ManualClock());
        await().atMost(WAIT).until(() -> rt.probeStatus().size() == 2
                && rt.probeStatus().stream().allMatch(p -> p.lastResult().equals("success")));
        assertThat(real().state()).isEqualTo(RealState.OPERATIONAL);

        PASSES.put("P1", false);
        awaitState(RealState.PROBE_FAILED, List.of("P1"));
        PASSES.put("P2", false);
        awaitState(RealState.PROBE_FAILED, List.of("P1", "P2"));
        PASSES.put("P1", true);
        awaitState(RealState.PROBE_FAILED, List.of("P2"));
        assertThat(ProbeScheduler.byProbeAndReal(rt.probeStatus()).get("P2/127.0.0.11:9001").lastReason())
                .isEqualTo("P2 says no");
        PASSES.put("P2", true);
        awaitState(RealState.OPERATIONAL, List.of());

        PASSES.put("P1", false);
        awaitState(RealState.PROBE_FAILED, List.of("P1"));
        rt.reload(parse(config(data, false)));
        awaitState(RealState.OPERATIONAL, List.of());
        assertThat(rt.probeStatus()).extracting(ProbeStatus::probe).containsExactly("P2");
    }
}
