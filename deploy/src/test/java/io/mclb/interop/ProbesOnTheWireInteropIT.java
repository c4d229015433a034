package io.mclb.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The probe framework in the assembled server, started as an operator starts it ({@code ./mclb
 * run}): a gtp-echo probe on a GGSN farm and a RADIUS Status-Server probe on an AAA farm in one
 * configuration, every module loaded ({@code interop/probes.cfg}). Before the engine owned the
 * probe lines, the RADIUS syntax claimed the GGSN farm's {@code probe ECHO} and no echo was ever
 * sent. tshark on the namespace's loopback sees the Echo Requests and Status-Servers; the silent
 * reals go PROBE_FAILED; a GGSN simulator that starts answering brings its real back.
 */
class ProbesOnTheWireInteropIT {
    private static final int ADMIN_PORT = 18080;

    @TempDir
    Path tmp;

    @Test
    void gtpEchoAndRadiusStatusServerProbesGoOutAndJudgeTheReals() throws Exception {
        try (Netns ns = Netns.create(tmp)) {
            ns.run(() -> {
                Tshark cap = Tshark.start(ns, "tshark", "udp and (host 127.0.0.5 or host 127.0.0.6 or host 127.0.0.7)");
                MclbProcess mclb = MclbProcess.startLauncher(ns, MclbProcess.writeConfig(ns, "probes.cfg", ADMIN_PORT),
                        ADMIN_PORT);
                String failed = awaitState(mclb, List.of("127.0.0.5:2123", "127.0.0.6:2123", "127.0.0.7:1812"),
                        "PROBE_FAILED", Duration.ofSeconds(30));

                NsProcess ggsn = MclbProcess.startJava(ns, "sim-ggsn", "sim", "gtp", "-l", "127.0.0.5:2123");
                ns.awaitUdpListening(ggsn, Duration.ofSeconds(60), "127.0.0.5:2123");
                String recovered = awaitState(mclb, List.of("127.0.0.5:2123"), "OPERATIONAL", Duration.ofSeconds(30));
                String reals = mclb.get("/api/v1/reals");
                String metrics = mclb.metrics();
                cap.stop();

                assertThat(failed).as("every silent real is PROBE_FAILED").isNotNull();
                assertThat(recovered).as("the GGSN that answers is back").isNotNull();
                assertThat(rows(reals, "127.0.0.6:2123")).allSatisfy(r -> assertThat(r).contains("\"PROBE_FAILED\""));
                for (String ggsnAddress : List.of("127.0.0.5", "127.0.0.6")) {
                    assertThat(cap.count("gtp.message == 1 && ip.dst == " + ggsnAddress + " && udp.dstport == 2123"))
                            .as("GTP Echo Requests to %s on the wire", ggsnAddress).isGreaterThanOrEqualTo(2);
                }
                assertThat(cap.count("gtp.message == 2 && ip.src == 127.0.0.5")).as("echo answers of the simulator")
                        .isPositive();
                assertThat(cap.count("radius.code == 12 && ip.dst == 127.0.0.7 && udp.dstport == 1812"))
                        .as("RADIUS Status-Server to the AAA on the wire").isGreaterThanOrEqualTo(2);
                assertThat(cap.problems("gtp || radius")).as("malformed probe frames").isEmpty();
                assertThat(MclbProcess.sum(metrics, "mclb_probe_results_total", "probe=\"ECHO\"", "result=\"success\""))
                        .as("passed echo checks in:%n%s", metrics).isPositive();
                assertThat(MclbProcess.sum(metrics, "mclb_probe_results_total", "probe=\"AAA-SS\"", "result=\"timeout\""))
                        .as("timed-out Status-Server checks").isGreaterThanOrEqualTo(2);
            });
        }
    }

    /** The reals JSON once every real in {@code labels} is in {@code state}; null if not within the timeout. */
    private static String awaitState(MclbProcess mclb, List<String> labels, String state, Duration timeout)
            throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            String reals = mclb.get("/api/v1/reals");
            boolean all = true;
            for (String label : labels) {
                List<String> r = rows(reals, label);
                all &= !r.isEmpty() && r.stream().allMatch(x -> x.contains("\"" + state + "\""));
            }
            if (all) {
                return reals;
            }
            Thread.sleep(250);
        }
        return null;
    }

    /** The JSON objects of {@code /api/v1/reals} naming {@code label}. */
    private static List<String> rows(String json, String label) {
        return java.util.Arrays.stream(json.split("\\},\\s*\\{")).filter(r -> r.contains("\"" + label + "\"")).toList();
    }
}
