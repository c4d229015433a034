package io.mclb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mclb.perf.udp.UdpResponderFarm;
import io.mclb.server.MclbServer;
import io.mclb.service.Modules;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Prometheus server (the Debian {@code prometheus} package, installed by {@code .ci/run})
 * scrapes a running mclb's {@code /metrics} and can query {@code mclb_requests_total}: proves the
 * exposition format, content negotiation and metric names against the consumer operators use,
 * not against our own parser. Runs only with {@code -Pinterop} (failsafe includes
 * {@code *InteropIT} there and excludes it otherwise).
 *
 * <p>Everything is on loopback; ports are picked free at start. The binary is
 * {@code /usr/bin/prometheus} unless {@code -Dmclb.prometheus=PATH} says otherwise.
 */
class PrometheusScrapeInteropIT {
    private static final String VSERVER = "PROM-V";
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    // a number in a Prometheus instant-vector answer: "value":[<ts>,"<value>"]
    private static final Pattern SAMPLE = Pattern.compile("\"value\":\\[[0-9.]+,\"([^\"]+)\"\\]");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    Path tmp;

    @Test
    void prometheusScrapesMclbAndQueriesRequestCounter() throws Exception {
        InetAddress vip = InetAddress.getByName("127.0.0.150");
        int vipPort = freeUdpPort(vip);
        int adminPort = freeTcpPort();
        int promPort = freeTcpPort();
        Path prometheus = Path.of(System.getProperty("mclb.prometheus", "/usr/bin/prometheus"));
        assertThat(prometheus).as("prometheus binary (apt-get install -y prometheus)").isExecutable();

        try (UdpResponderFarm farm = UdpResponderFarm.start(List.of(
                new InetSocketAddress("127.0.0.151", 0), new InetSocketAddress("127.0.0.152", 0)))) {
            Path cfg = tmp.resolve("mclb.cfg");
            Files.writeString(cfg, String.join("\n",
                    "mclb admin 127.0.0.1 " + adminPort,
                    "mclb data-dir " + tmp.resolve("data"),
                    "ip slb serverfarm PROM-FARM",
                    " real 127.0.0.151 " + farm.boundAddresses().get(0).getPort(),
                    "  inservice",
                    " real 127.0.0.152 " + farm.boundAddresses().get(1).getPort(),
                    "  inservice",
                    "ip slb vserver " + VSERVER,
                    " virtual 127.0.0.150 udp " + vipPort,
                    " serverfarm PROM-FARM",
                    " inservice", ""));
            try (MclbServer mclb = MclbServer.start(cfg, Modules.load())) {
                int answered = sendRequests(new InetSocketAddress(vip, vipPort), 20);
                assertThat(answered).as("answers through mclb").isPositive();

                Path promYml = tmp.resolve("prometheus.yml");
                Files.writeString(promYml, String.join("\n",
                        "global:",
                        "  scrape_interval: 1s",
                        "  evaluation_interval: 1s",
                        "scrape_configs:",
                        "  - job_name: mclb",
                        "    scrape_interval: 1s",
                        "    static_configs:",
                        "      - targets: ['127.0.0.1:" + adminPort + "']", ""));
                Path log = tmp.resolve("prometheus.log");
                Process prom = new ProcessBuilder(prometheus.toString(),
                        "--config.file=" + promYml,
                        "--storage.tsdb.path=" + tmp.resolve("tsdb"),
                        "--web.listen-address=127.0.0.1:" + promPort)
                        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
                try {
                    String base = "http://127.0.0.1:" + promPort;
                    await("prometheus target up and mclb_requests_total > 0").atMost(DEADLINE)
                            .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                            .untilAsserted(() -> {
                                assertThat(prom.isAlive()).as("prometheus alive; log:%n%s", tail(log)).isTrue();
                                String targets = get(base + "/api/v1/targets");
                                assertThat(targets).contains("\"health\":\"up\"")
                                        .contains("127.0.0.1:" + adminPort);
                                assertThat(requestsTotal(base)).isPositive();
                            });
                    // the value Prometheus stored is what mclb counted: at least the answered requests
                    assertThat(requestsTotal(base)).isGreaterThanOrEqualTo(answered);
                } finally {
                    stop(prom);
                }
            }
        }
    }

    private double requestsTotal(String base) throws Exception {
        String q = URLEncoder.encode("mclb_requests_total{vserver=\"" + VSERVER + "\"}", StandardCharsets.UTF_8);
        String body = get(base + "/api/v1/query?query=" + q);
        assertThat(body).contains("\"status\":\"success\"");
        Matcher m = SAMPLE.matcher(body);
        assertThat(m.find()).as("a sample in %s", body).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private String get(String url) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET %s: %s", url, r.body()).isEqualTo(200);
        return r.body();
    }

    /** Sends requests one at a time; returns how many were answered (by the echo farm, through mclb). */
    private static int sendRequests(InetSocketAddress vip, int count) throws IOException {
        int answered = 0;
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            s.setSoTimeout(1000);
            byte[] in = new byte[64];
            for (int i = 0; i < count; i++) {
                byte[] out = ("req-" + i).getBytes(StandardCharsets.US_ASCII);
                s.send(new DatagramPacket(out, out.length, vip));
                try {
                    s.receive(new DatagramPacket(in, in.length));
                    answered++;
                } catch (java.net.SocketTimeoutException e) {
                    // counted as unanswered; the assertion on the total says whether that matters
                }
            }
        }
        return answered;
    }

    /** SIGTERM by pid, then SIGKILL if it does not go within 10 s, so no prometheus outlives the test. */
    private static void stop(Process p) throws InterruptedException {
        ProcessHandle h = ProcessHandle.of(p.pid()).orElse(null);
        if (h == null) {
            return;
        }
        h.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            h.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static int freeTcpPort() throws IOException {
        return io.mclb.testing.Ports.freeTcp("127.0.0.1");
    }

    private static int freeUdpPort(InetAddress a) throws IOException {
        return io.mclb.testing.Ports.freeUdp(a.getHostAddress());
    }
}
