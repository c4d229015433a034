package io.mclb;

import io.mclb.server.MclbServer;
import io.mclb.service.Modules;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every metric the Grafana dashboard ({@code deploy/grafana}) and the alert rules
 * ({@code deploy/prometheus}) name is in the {@code /metrics} of a freshly started mclb, before
 * any traffic: a dashboard panel or a rule on a name mclb does not export (or exports only after
 * some event) fails here. In-process on free loopback ports, so it runs in every build;
 * {@code DashboardMetricsInteropIT} does the same through a real Prometheus.
 */
class DashboardMetricNamesIT {
    @TempDir
    Path dir;

    @Test
    void everyNameOfTheDashboardAndTheAlertRulesIsExportedFromTheStart() throws Exception {
        int admin = io.mclb.testing.Ports.freeTcp("127.0.0.1");
        Set<Integer> vips = new LinkedHashSet<>();
        while (vips.size() < 3) {
            vips.add(io.mclb.testing.Ports.freeUdp("127.0.0.100"));
        }
        Integer[] vip = vips.toArray(Integer[]::new);
        Path cfg = dir.resolve("observability.cfg");
        Files.writeString(cfg, config()
                .replace("@DATA_DIR@", dir.resolve("data").toString())
                .replace("@ADMIN_PORT@", Integer.toString(admin))
                .replace("@HA_PORT@", Integer.toString(io.mclb.testing.Ports.freeUdp("127.0.0.1")))
                .replace("@REPL_PORT@", Integer.toString(io.mclb.testing.Ports.freeTcp("127.0.0.1")))
                .replace("@GTP_PORT@", vip[0].toString())
                .replace("@RADIUS_PORT@", vip[1].toString())
                .replace("@UDP_PORT@", vip[2].toString()));
        try (MclbServer server = MclbServer.start(cfg, Modules.load())) {
            String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + admin + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();

            Set<String> named = MetricReferences.named();
            assertThat(named).as("names found in the dashboard and the rules").hasSizeGreaterThan(40)
                    .contains("mclb_requests_total", "mclb_upstream_latency_seconds_bucket", "mclb_ha_state",
                            "mclb_replication_lag_seconds_bucket", "mclb_gtp_causes_total", "jvm_memory_used_bytes");
            assertThat(MetricReferences.missing(named, MetricReferences.exported(metrics)))
                    .as("named by the dashboard or the alert rules but not exported at start; /metrics:%n%s", metrics)
                    .isEmpty();
        }
    }

    static String config() throws Exception {
        try (InputStream in = DashboardMetricNamesIT.class.getResourceAsStream("/interop/observability.cfg")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
