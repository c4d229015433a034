package io.mclb.feedback.sidecar;

import io.mclb.feedback.dfp.DfpWire;
import io.mclb.time.NanoClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The sidecar's formulas, its inputs, and that it withdraws its weight when it cannot read them. */
class SidecarTest {
    @TempDir
    Path dir;

    @Test
    void theSeedFormulasWithTheirDefaults() {
        // home agent, feature guide: (235000 - 117500) / 235000 x (16 + 16) / 32 x 24 = 12
        assertThat(WeightFormula.BINDING.weight(117_500, 235_000, 24, 1, 1)).isEqualTo(12);
        assertThat(WeightFormula.BINDING.weight(0, 235_000, 24, 0.5, 0.5)).as("half CPU+memory headroom").isEqualTo(12);
        assertThat(WeightFormula.BINDING.weight(0, 235_000, 24, 0, 0)).isZero();
        assertThat(WeightFormula.GGSN.weight(0, 10_000, 8, 1, 1)).as("idle GGSN: its full weight").isEqualTo(8);
        assertThat(WeightFormula.GGSN.weight(2_500, 10_000, 8, 1, 1)).isEqualTo(6);
        assertThat(WeightFormula.GGSN.weight(10_000, 10_000, 8, 1, 1)).as("full: no new PDP context").isZero();
        assertThat(WeightFormula.GGSN.weight(12_000, 10_000, 8, 1, 1)).isZero();
        assertThat(WeightFormula.GGSN.defaultCapacity()).isEqualTo(10_000);
        assertThat(WeightFormula.BINDING.defaultMaxWeight()).isEqualTo(24);
    }

    @Test
    void fileCommandAndPrometheusInputs() throws Exception {
        Path f = dir.resolve("pdp");
        Files.writeString(f, "contexts 120\n");
        assertThat(LoadInput.parse("file:" + f, null).read()).isEqualTo(120);
        assertThat(LoadInput.parse("command:echo PDP contexts: 3; echo PDP contexts: 4",
                Pattern.compile("PDP contexts: ([0-9]+)")).read()).as("summed over matches").isEqualTo(7);
        assertThatThrownBy(() -> LoadInput.parse("command:exit 3", null).read()).hasMessageContaining("exit 3");
        assertThatThrownBy(() -> LoadInput.parse("file:" + dir.resolve("missing"), null).read())
                .isInstanceOf(IOException.class);
        String text = "# TYPE pdp gauge\npdp{apn=\"internet\",ggsn=\"g1\"} 10.0\npdp{apn=\"ims\",ggsn=\"g1\"} 5\nother 99\n";
        assertThat(LoadInput.PrometheusText.sum(text, "pdp", "t")).isEqualTo(15);
        assertThat(LoadInput.PrometheusText.sum(text, "pdp{apn=\"ims\"}", "t")).isEqualTo(5);
        assertThatThrownBy(() -> LoadInput.PrometheusText.sum(text, "nope", "t")).hasMessageContaining("no sample");
        assertThatThrownBy(() -> LoadInput.parse("snmp:x", null)).hasMessageContaining("allowed prometheus, file");
    }

    /** osmo-ggsn's VTY as osmo-ggsn 1.9 prints {@code show ggsn} (captured from a real one, peers.md section 7 set-up). */
    @Test
    void osmoVtySumsThePdpContextsOfEverySgsn() throws Exception {
        try (ServerSocket vty = new ServerSocket(0, 5, InetAddress.getByName("127.0.0.1"))) {
            Thread t = new Thread(() -> {
                try (Socket s = vty.accept()) {
                    OutputStream out = s.getOutputStream();
                    out.write("Welcome to the OsmoGGSN VTY\r\nOsmoGGSN> ".getBytes(StandardCharsets.US_ASCII));
                    InputStream in = s.getInputStream();
                    while (in.read() != '\n') {
                        // the command
                    }
                    out.write(("show ggsn\r\nGGSN ggsn1: Bound to 127.0.0.2\r\n APN: internet\r\n (S)GSN 127.0.0.10\r\n"
                            + "  Restart Counter: 1\r\n  PDP contexts: 3\r\n  Echo Requests in-flight: 0\r\n"
                            + " (S)GSN 127.0.0.11\r\n  Restart Counter: 0\r\n  PDP contexts: 2\r\nOsmoGGSN> ")
                            .getBytes(StandardCharsets.US_ASCII));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            t.start();
            assertThat(LoadInput.parse("osmo-vty:127.0.0.1:" + vty.getLocalPort(), null).read()).isEqualTo(5);
            t.join();
        }
    }

    @Test
    void anUnreadableInputDisconnectsTheManagersUntilItReadsAgain() throws Exception {
        Path f = dir.resolve("pdp");
        Files.writeString(f, "0");
        List<SidecarAgent.Sample> samples = new java.util.concurrent.CopyOnWriteArrayList<>();
        SidecarAgent.Settings s = new SidecarAgent.Settings(new InetSocketAddress("127.0.0.1", 0),
                InetAddress.getByName("10.20.1.11"), 0, DfpWire.PROTOCOL_ANY, 0, WeightFormula.GGSN,
                LoadInput.parse("file:" + f, null), 100, 8, null, null, 1, null);
        try (SidecarAgent agent = new SidecarAgent(s, NanoClock.system(), new SimpleMeterRegistry(), samples::add)) {
            try (Socket manager = new Socket("127.0.0.1", agent.localAddress().getPort())) {
                manager.setSoTimeout(10_000);
                InputStream in = manager.getInputStream();
                byte[] header = in.readNBytes(8);
                assertThat(header[0]).as("a DFP report first").isEqualTo((byte) 1);
                Files.delete(f);
                // the agent closes the connection once its input fails: read to the end
                long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                while (in.read() >= 0 && System.nanoTime() < end) {
                    // reports before the failed read
                }
                assertThat(System.nanoTime()).as("closed by the agent").isLessThan(end);
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> samples.stream().anyMatch(x -> x.error() != null));
            Files.writeString(f, "50");
            await().atMost(Duration.ofSeconds(5)).until(() -> samples.get(samples.size() - 1).weight() == 4);
            try (Socket again = new Socket("127.0.0.1", agent.localAddress().getPort())) {
                again.setSoTimeout(5000);
                assertThat(again.getInputStream().readNBytes(8)[0]).as("serving again").isEqualTo((byte) 1);
            }
        }
        List<Integer> weights = new ArrayList<>();
        samples.forEach(x -> weights.add(x.weight()));
        assertThat(weights).containsSubsequence(8, -1, 4);
    }
}
