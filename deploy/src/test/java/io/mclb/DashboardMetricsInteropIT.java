package io.mclb;

import io.mclb.interop.MclbProcess;
import io.mclb.interop.Netns;
import io.mclb.interop.NsProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Grafana dashboard and the alert rules against a real mclb process and a real Prometheus, in
 * a private network namespace: mclb runs {@code interop/observability.cfg} (GTP, RADIUS, probes,
 * sticky, an HA group with replication); its first {@code /metrics} already has every family the
 * dashboard and the rules name; Prometheus, loading {@code deploy/prometheus/mclb-alerts.yml},
 * stores those names, evaluates every rule without error and accepts every dashboard query; and
 * {@code mclb_build_info} carries the version {@code mclb -V} prints.
 */
class DashboardMetricsInteropIT {
    private static final int ADMIN_PORT = 18080;
    private static final int PROMETHEUS_PORT = 19090;
    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final Pattern BUILD_VERSION = Pattern.compile("mclb_build_info\\{[^}]*version=\"([^\"]+)\"");
    private static final Pattern RULE_HEALTH = Pattern.compile("\"health\":\"([a-z]+)\"");

    @TempDir
    Path tmp;

    @Test
    void everyNameTheDashboardAndRulesUseIsExportedAndEveryQueryIsAccepted() throws Exception {
        try (Netns ns = Netns.create(tmp)) {
            ns.run(() -> {
                Path cfg = MclbProcess.writeResource(ns, "observability.cfg", text -> text
                        .replace("@DATA_DIR@", ns.dir().resolve("mclb-data").toString())
                        .replace("@ADMIN_PORT@", Integer.toString(ADMIN_PORT)).replace("@HA_PORT@", "1985")
                        .replace("@REPL_PORT@", "4231").replace("@GTP_PORT@", "2123")
                        .replace("@RADIUS_PORT@", "1812").replace("@UDP_PORT@", "9000"));
                MclbProcess mclb = MclbProcess.start(ns, cfg, ADMIN_PORT);
                String atStart = mclb.metrics();
                Set<String> named = MetricReferences.named();
                assertThat(MetricReferences.missing(named, MetricReferences.exported(atStart)))
                        .as("named by the dashboard or the rules but not in mclb's first /metrics:%n%s", atStart)
                        .isEmpty();

                NsProcess version = MclbProcess.startJava(ns, "mclb-version", "-V");
                assertThat(version.waitFor(DEADLINE)).isZero();
                Matcher v = BUILD_VERSION.matcher(atStart);
                assertThat(v.find()).as("mclb_build_info in%n%s", atStart).isTrue();
                assertThat(version.lines()).as("mclb -V").contains("mclb " + v.group(1));

                startPrometheus(ns);
                int alerts = countAlerts();
                await("Prometheus scraped mclb").atMost(DEADLINE).pollInterval(Duration.ofMillis(500))
                        .until(() -> query(ns, "up{job=\"mclb\"}").contains(",\"1\"]"));
                await("Prometheus evaluated every rule without error").atMost(DEADLINE)
                        .pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                                assertThat(all(RULE_HEALTH, get(ns, "/api/v1/rules"))).hasSize(alerts)
                                        .containsOnly("ok"));

                String stored = get(ns, "/api/v1/label/__name__/values");
                Set<String> storedNames = new TreeSet<>(all(Pattern.compile("\"([a-z_:][a-z0-9_:]*)\""), stored));
                assertThat(MetricReferences.missing(named, storedNames)).as("names Prometheus stored: %s", storedNames)
                        .isEmpty();

                List<String> refused = new ArrayList<>();
                for (String expr : MetricReferences.dashboardExpressions()) {
                    String answer = query(ns, grafanaVariables(expr));
                    if (!answer.contains("\"status\":\"success\"")) {
                        refused.add(expr + " -> " + answer);
                    }
                }
                assertThat(refused).as("dashboard queries Prometheus refused").isEmpty();
            });
        }
    }

    /** What Grafana puts in place of its variables when "All" is selected. */
    private static String grafanaVariables(String expr) {
        return expr.replace("$__rate_interval", "1m").replace("$__range", "1h").replace("$instance", ".*")
                .replace("$vserver", ".*").replace("$farm", ".*");
    }

    private static void startPrometheus(Netns ns) throws Exception {
        Path prometheus = Path.of(System.getProperty("mclb.prometheus", "/usr/bin/prometheus"));
        assertThat(prometheus).as("prometheus binary (apt-get install -y prometheus)").isExecutable();
        Path yml = ns.dir().resolve("prometheus.yml");
        Files.writeString(yml, String.join("\n",
                "global:",
                "  scrape_interval: 1s",
                "  evaluation_interval: 1s",
                "rule_files:",
                "  - " + MetricReferences.ALERT_RULES.toAbsolutePath(),
                "scrape_configs:",
                "  - job_name: mclb",
                "    static_configs:",
                "      - targets: ['127.0.0.1:" + ADMIN_PORT + "']", ""));
        ns.start("prometheus", List.of(prometheus.toString(), "--config.file=" + yml,
                "--storage.tsdb.path=" + ns.dir().resolve("tsdb"),
                "--web.listen-address=127.0.0.1:" + PROMETHEUS_PORT));
    }

    private static int countAlerts() throws Exception {
        return all(Pattern.compile("(?m)^\\s*- alert: "), Files.readString(MetricReferences.ALERT_RULES)).size();
    }

    private static String query(Netns ns, String promql) throws Exception {
        return get(ns, "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    }

    /** GET on Prometheus inside the namespace (python3's urllib; an HTTP error's body is printed too). */
    private static String get(Netns ns, String path) throws Exception {
        return ns.exec(Duration.ofSeconds(15), "/usr/bin/python3", "-c",
                "import sys, urllib.request, urllib.error\n"
                        + "try:\n"
                        + "    sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())\n"
                        + "except urllib.error.HTTPError as e:\n"
                        + "    sys.stdout.write(e.read().decode())\n",
                "http://127.0.0.1:" + PROMETHEUS_PORT + path).output();
    }

    private static List<String> all(Pattern p, String text) {
        List<String> out = new ArrayList<>();
        Matcher m = p.matcher(text);
        while (m.find()) {
            out.add(m.groupCount() > 0 ? m.group(1) : m.group());
        }
        return out;
    }
}
