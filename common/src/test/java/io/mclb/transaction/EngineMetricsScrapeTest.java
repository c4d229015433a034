package io.mclb.transaction;

import io.mclb.metrics.BuildInfo;
import io.mclb.net.DropReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.nio.file.Path;
import java.time.Duration;

import static io.mclb.testing.Metrics.sample;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The runtime's {@code /metrics} text as Prometheus reads it: the build, JVM and process families,
 * and every series of the configured objects at zero before the first datagram (dashboards and
 * alert rules see zeros, not gaps); then the per-real answer meters move with the answers.
 */
class EngineMetricsScrapeTest {
    @TempDir
    Path dataDir;

    @Test
    void buildJvmAndProcessFamiliesAreExported() throws Exception {
        String m;
        try (RelayHarness h = new RelayHarness(dataDir, 1)) {
            m = h.runtime.registry().scrape();
        }

        assertThat(BuildInfo.version()).as("the build filtered build.properties").isNotEqualTo(BuildInfo.UNKNOWN);
        assertThat(sample(m, "mclb_build_info{commit=\"" + BuildInfo.commit() + "\",java=\""
                + System.getProperty("java.version") + "\",version=\"" + BuildInfo.version() + "\"}")).isEqualTo(1);
        assertThat(m).contains("mclb_info{transport=", "version=\"" + BuildInfo.version() + "\"");
        assertThat(m).contains("jvm_memory_used_bytes{area=\"heap\"", "jvm_gc_", "jvm_threads_live_threads ",
                "jvm_classes_loaded_classes ", "jvm_info{", "process_cpu_usage ", "process_uptime_seconds ",
                "process_start_time_seconds ", "process_files_open_files ", "system_cpu_count ");
        assertThat(sample(m, "mclb_sticky_capacity")).as("mclb sticky entries of the harness").isEqualTo(10_000);
    }

    @Test
    void configuredObjectsHaveTheirSeriesFromTheStartAndAnswersMoveThePerRealMeters() throws Exception {
        try (RelayHarness h = new RelayHarness(dataDir, 2)) {
            perRealMetersMove(h);
        }
    }

    private static void perRealMetersMove(RelayHarness h) throws Exception {
        h.reals.get(0).mode(FakeReal.Mode.REJECT); // its answers move the request to the other real
        String[] reals = {h.real(0).label(), h.real(1).label()};
        String before = h.runtime.registry().scrape();
        for (DropReason r : DropReason.ENGINE) {
            assertThat(sample(before, "mclb_drops_total{reason=\"" + r.label() + "\",vserver=\"V\"}"))
                    .as("drop reason %s from the start", r).isZero();
        }
        for (String real : reals) {
            String farmReal = "farm=\"F\",real=\"" + real + "\"";
            assertThat(sample(before, "mclb_real_responses_total{" + farmReal + "}")).isZero();
            assertThat(sample(before, "mclb_upstream_latency_seconds_count{" + farmReal + "}")).isZero();
            assertThat(sample(before, "mclb_upstream_latency_seconds_bucket{" + farmReal + ",le=\"0.001\"}")).isZero();
            assertThat(sample(before, "mclb_real_requests_total{" + farmReal + ",vserver=\"V\"}")).isZero();
            assertThat(sample(before, "mclb_real_state{" + farmReal + ",state=\"OPERATIONAL\"}")).isEqualTo(1);
            assertThat(sample(before, "mclb_sessions_active{" + farmReal + "}")).isZero();
        }
        assertThat(sample(before, "mclb_requests_total{vserver=\"V\"}")).isZero();
        assertThat(sample(before, "mclb_responses_total{vserver=\"V\"}")).isZero();

        DatagramSocket c = h.client();
        int requests = 4;
        for (int i = 0; i < requests; i++) {
            h.send(c, RelayHarness.request(i, "q" + i));
            assertThat(h.receive(c).type()).isEqualTo(EchoIdService.RESPONSE);
        }
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            String after = h.runtime.registry().scrape();
            for (int i = 0; i < 2; i++) {
                String farmReal = "farm=\"F\",real=\"" + reals[i] + "\"";
                int answered = h.reals.get(i).count(); // each real answers every request it sees
                assertThat(sample(after, "mclb_real_responses_total{" + farmReal + "}")).as(reals[i])
                        .isEqualTo(answered);
                assertThat(sample(after, "mclb_upstream_latency_seconds_count{" + farmReal + "}")).as(reals[i])
                        .isEqualTo(answered);
            }
            assertThat(h.reals.get(0).count()).as("the rejecting real was tried").isPositive();
            // the virtual server's series time what reached the client: the rejects are not among them
            assertThat(sample(after, "mclb_upstream_latency_seconds_count{vserver=\"V\"}")).isEqualTo(requests);
            assertThat(sample(after, "mclb_real_responses_total{farm=\"F\",real=\"" + reals[1] + "\"}"))
                    .isEqualTo(requests);
        });
    }
}
