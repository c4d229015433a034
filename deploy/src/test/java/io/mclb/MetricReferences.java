package io.mclb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the shipped Grafana dashboard and Prometheus alert rules name, and whether mclb exports it.
 * A name counts when it appears anywhere in the file (expressions, variable queries, descriptions):
 * a description that names a metric must not lie either.
 */
final class MetricReferences {
    /** The module directory (failsafe runs there): where deploy/grafana and deploy/prometheus are. */
    static final Path DASHBOARD = Path.of("grafana", "mclb-dashboard.json");
    static final Path ALERT_RULES = Path.of("prometheus", "mclb-alerts.yml");
    static final Path ALERT_TESTS = Path.of("prometheus", "mclb-alerts.test.yml");

    private static final Pattern NAME = Pattern.compile("(?<![A-Za-z0-9_])((?:mclb|jvm|process)_[a-z0-9_]*[a-z0-9])");
    private static final Pattern EXPR = Pattern.compile("\"expr\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    /** What a family name becomes in the samples of a histogram, summary, timer or counter. */
    private static final List<String> SAMPLE_SUFFIXES = List.of("_bucket", "_count", "_sum", "_max", "_total", "_created");

    private MetricReferences() {
    }

    /** Every metric name the dashboard and the alert rules mention, sorted. */
    static Set<String> named() throws IOException {
        Set<String> names = new TreeSet<>();
        for (Path p : List.of(DASHBOARD, ALERT_RULES)) {
            Matcher m = NAME.matcher(Files.readString(p));
            while (m.find()) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    /** The dashboard's PromQL expressions (JSON-unescaped), in file order. */
    static List<String> dashboardExpressions() throws IOException {
        List<String> out = new ArrayList<>();
        Matcher m = EXPR.matcher(Files.readString(DASHBOARD));
        while (m.find()) {
            out.add(m.group(1).replace("\\\"", "\"").replace("\\\\", "\\"));
        }
        return out;
    }

    /** Sample and family names of a Prometheus text exposition. */
    static Set<String> exported(String exposition) {
        Set<String> names = new TreeSet<>();
        for (String line : exposition.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                names.add(line.split(" ")[2]);
            } else if (!line.isEmpty() && !line.startsWith("#")) {
                names.add(line.split("[{ ]", 2)[0]);
            }
        }
        return names;
    }

    /** The names in {@code named} that are neither a sample nor a family of {@code exported}. */
    static List<String> missing(Set<String> named, Set<String> exported) {
        List<String> out = new ArrayList<>();
        for (String n : named) {
            if (!exported.contains(n) && SAMPLE_SUFFIXES.stream().noneMatch(s -> exported.contains(n + s))) {
                out.add(n);
            }
        }
        return out;
    }
}
