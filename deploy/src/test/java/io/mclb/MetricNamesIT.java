package io.mclb;

import io.mclb.server.MclbServer;
import io.mclb.service.Modules;
import io.mclb.testing.FakeUdpReal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The metric names are a contract with operators' dashboards (DESIGN section 6): a whole mclb
 * process is started from a configuration file, carries traffic, and its /metrics is read as a
 * scraper would.
 */
class MetricNamesIT {
    @TempDir
    Path dir;

    private final List<AutoCloseable> closeMe = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void tearDown() throws Exception {
        for (int i = closeMe.size() - 1; i >= 0; i--) {
            closeMe.get(i).close();
        }
    }

    private static int freeTcpPort() throws Exception {
        return io.mclb.testing.Ports.freeTcp("127.0.0.1");
    }

    private static int freeUdpPort() throws Exception {
        return io.mclb.testing.Ports.freeUdp("127.0.0.100");
    }

    private HttpResponse<String> get(String url, String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        if (accept != null) {
            b.header("Accept", accept);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void metricsCarryTheDocumentedNamesAndLabels() throws Exception {
        FakeUdpReal a = new FakeUdpReal("127.0.0.11");
        closeMe.add(a);
        int admin = freeTcpPort();
        int port = freeUdpPort();
        Path cfg = dir.resolve("mclb.cfg");
        Files.writeString(cfg, "mclb admin 127.0.0.1 " + admin + "\nmclb data-dir " + dir.resolve("data")
                + "\nmclb sticky entries 10000\n"
                + "ip slb serverfarm F\n real 127.0.0.11 " + a.port() + "\n  inservice\n"
                + "ip slb vserver V\n virtual 127.0.0.100 udp " + port + "\n serverfarm F\n sticky 60\n inservice\n");
        MclbServer server = MclbServer.start(cfg, Modules.load());
        closeMe.add(server);
        try (DatagramSocket c = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            assertThat(FakeUdpReal.exchange(c, new byte[] {1, 2, 3}, new InetSocketAddress("127.0.0.100", port), 2000))
                    .isNotNull();
        }
        String base = "http://127.0.0.1:" + admin;
        HttpResponse<String> r = get(base + "/metrics", null);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain; version=0.0.4");
        String m = r.body();
        String real = "127.0.0.11:" + a.port();
        assertThat(m).contains(
                "mclb_requests_total{vserver=\"V\"} 1.0",
                "mclb_responses_total{vserver=\"V\"} 1.0",
                "mclb_assignments_total{vserver=\"V\"} 1.0",
                "mclb_drops_total{reason=\"malformed\",vserver=\"V\"} 0.0",
                "mclb_drops_total{reason=\"client_not_allowed\",vserver=\"V\"} 0.0",
                "mclb_reassignments_total{reason=\"unanswered\",vserver=\"V\"} 0.0",
                "mclb_real_requests_total{farm=\"F\",real=\"" + real + "\",vserver=\"V\"} 1.0",
                "mclb_sessions_active{farm=\"F\",real=\"" + real + "\"} 1.0",
                "mclb_real_clients{farm=\"F\",real=\"" + real + "\"} 1.0",
                "mclb_real_state{farm=\"F\",real=\"" + real + "\",state=\"OPERATIONAL\"} 1.0",
                "mclb_real_state{farm=\"F\",real=\"" + real + "\",state=\"FAILED\"} 0.0",
                "mclb_real_weight{farm=\"F\",real=\"" + real + "\",source=\"config\"} 8.0",
                "mclb_real_weight{farm=\"F\",real=\"" + real + "\",source=\"operational\"} 8.0",
                "mclb_real_weight{farm=\"F\",real=\"" + real + "\",source=\"dfp\"} NaN",
                "mclb_kalap_load{tag=\"\",vserver=\"V\"} 0.0",
                "mclb_real_failures_total{farm=\"F\",real=\"" + real + "\"} 0.0",
                "mclb_sticky_entries{table=\"client-ip\"} 1.0",
                "mclb_sticky_entries{table=\"gtp-imsi\"} 0.0",
                "mclb_sticky_refused_full_total 0.0",
                "mclb_flows_active{vserver=\"V\"} 1.0",
                "mclb_vserver_state{state=\"OPERATIONAL\",vserver=\"V\"} 1.0",
                "mclb_upstream_latency_seconds_count{vserver=\"V\"}",
                "mclb_upstream_latency_seconds_bucket{vserver=\"V\",le=\"0.001\"}",
                "mclb_request_timeouts_total{vserver=\"V\"} 0.0",
                "mclb_retransmissions_total{vserver=\"V\"} 0.0",
                "mclb_config_reloads_total{result=\"ok\"} 0.0",
                "mclb_info{transport=");
        // every mclb series is documented with a HELP line
        for (String line : m.split("\n")) {
            if (line.startsWith("# HELP mclb_")) {
                assertThat(line.split(" ", 4)).as(line).hasSize(4);
            }
        }

        HttpResponse<String> om = get(base + "/metrics", "application/openmetrics-text; version=1.0.0");
        assertThat(om.headers().firstValue("Content-Type").orElse("")).startsWith("application/openmetrics-text");
        assertThat(om.body()).contains("mclb_requests_total{vserver=\"V\"} 1.0").endsWith("# EOF\n");

        // the JSON API behind 'mclb show'
        assertThat(get(base + "/api/v1/reals", null).body())
                .contains("\"real\":\"" + real + "\"", "\"state\":\"OPERATIONAL\"", "\"conns\":1");
        assertThat(get(base + "/api/v1/sticky?format=text", null).body()).contains("client-ip", "127.0.0.1", real);
        assertThat(get(base + "/api/v1/running-config?format=text", null).body()).contains("ip slb vserver V");
        assertThat(get(base + "/api/v1/nonsense", null).statusCode()).isEqualTo(404);
    }
}
