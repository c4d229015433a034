package io.mclb;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The alert rules as Prometheus reads them, in the build: {@code promtool} (Debian's prometheus
 * package, installed by {@code .ci/run}) checks {@code deploy/prometheus/mclb-alerts.yml}, runs its
 * unit tests {@code mclb-alerts.test.yml} and checks the shipped scrape configuration that loads
 * them. Every alert must have a case where it fires and one where it stays silent, so no rule is
 * added untested. The binary is {@code /usr/bin/promtool} unless {@code -Dmclb.promtool=PATH}.
 */
class AlertRulesInteropIT {
    private static final Pattern ALERT = Pattern.compile("(?m)^\\s*- alert: (\\S+)\\s*$");

    @TempDir
    Path tmp;

    @Test
    void theRulesAreValid() throws Exception {
        String out = promtool("check", "rules", MetricReferences.ALERT_RULES.toString());
        assertThat(out).contains("SUCCESS: " + alerts().size() + " rules found");
    }

    @Test
    void everyAlertFiresAndStaysSilentInTheUnitTests() throws Exception {
        assertThat(promtool("test", "rules", MetricReferences.ALERT_TESTS.toString())).contains("SUCCESS");

        Set<String> firing = new TreeSet<>();
        Set<String> silent = new TreeSet<>();
        List<String> lines = Files.readAllLines(MetricReferences.ALERT_TESTS);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.startsWith("alertname:") && i + 1 < lines.size()) {
                String name = line.substring("alertname:".length()).trim();
                (lines.get(i + 1).trim().equals("exp_alerts: []") ? silent : firing).add(name);
            }
        }
        assertThat(firing).as("alerts with a case where they fire").containsAll(alerts());
        assertThat(silent).as("alerts with a case where they stay silent").containsAll(alerts());
    }

    @Test
    void theShippedScrapeConfigurationLoadsTheRules() throws Exception {
        // as an operator installs it: the rules file next to prometheus.yml
        Files.copy(Path.of("packaging", "prometheus.yml"), tmp.resolve("prometheus.yml"), StandardCopyOption.REPLACE_EXISTING);
        Files.copy(MetricReferences.ALERT_RULES, tmp.resolve("mclb-alerts.yml"), StandardCopyOption.REPLACE_EXISTING);
        assertThat(promtool("check", "config", tmp.resolve("prometheus.yml").toString()))
                .contains("SUCCESS: 1 rule files found", "SUCCESS: " + alerts().size() + " rules found");
    }

    private static Set<String> alerts() throws IOException {
        Set<String> names = new TreeSet<>();
        Matcher m = ALERT.matcher(Files.readString(MetricReferences.ALERT_RULES));
        while (m.find()) {
            names.add(m.group(1));
        }
        assertThat(names).as("alerts in %s", MetricReferences.ALERT_RULES).isNotEmpty();
        return names;
    }

    /** Runs promtool; returns its output, asserting it exited 0. */
    private static String promtool(String... args) throws Exception {
        Path promtool = Path.of(System.getProperty("mclb.promtool", "/usr/bin/promtool"));
        assertThat(promtool).as("promtool (apt-get install -y prometheus)").isExecutable();
        List<String> cmd = new ArrayList<>(List.of(promtool.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("promtool finished").isTrue();
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("promtool %s:%n%s", String.join(" ", args), text).isZero();
        return text;
    }
}
