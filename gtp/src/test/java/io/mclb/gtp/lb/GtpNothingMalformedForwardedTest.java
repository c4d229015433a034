package io.mclb.gtp.lb;

import io.mclb.gtp.GtpMalformedCorpus;
import io.mclb.gtp.StrictGtpChecker;
import io.mclb.metrics.MetricNames;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 14 item 5, "nothing malformed is forwarded": the malformed corpus ({@link GtpMalformedCorpus})
 * goes to two {@code gtp-inspect} virtual servers (v0, v1/v2) in front of fake GGSNs, and every
 * datagram that reaches a GGSN is decoded by {@link StrictGtpChecker}, an independent reading of
 * the specs: none may be malformed, and every valid create of the corpus must still arrive.
 * Before these checks, 1,627 of the corpus's 3,000 broken datagrams reached a GGSN.
 */
class GtpNothingMalformedForwardedTest {
    private static final int DATAGRAMS = 4000;
    private static final int BATCH = 20;
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private GtpHarness h;

    @AfterEach
    void close() {
        if (h != null) {
            h.close();
        }
    }

    @Test
    void aCorpusOfSpecViolationsNeverReachesAGgsnWhileValidCreatesDo() throws Exception {
        h = new GtpHarness();
        List<FakeGgsn> farm = h.threeGgsns();
        ConcurrentLinkedQueue<byte[]> reached = new ConcurrentLinkedQueue<>();
        farm.forEach(g -> g.onReceive = b -> {
            if ((b[1] & 0xFF) != 2) { // mclb's Echo Responses to a GGSN are not forwarded requests
                reached.add(b);
            }
        });
        int p1 = GtpHarness.freePort("127.0.0.1");
        int p0 = GtpHarness.freePort("127.0.0.1");
        String cfg = GtpHarness.fuzzGlobalsAndReals(dir, farm, "")
                + "ip slb vserver GN\n virtual 127.0.0.1 udp " + p1 + " service gtp-inspect\n serverfarm GGSN-FARM\n"
                + " sticky gtp imsi group 1\n inservice\n"
                + "ip slb vserver GN-V0\n virtual 127.0.0.1 udp " + p0 + " service gtp-inspect\n serverfarm GGSN-FARM\n"
                + " sticky gtp imsi group 1\n inservice\n";
        h.start(h.parse(dir, cfg));
        InetSocketAddress vip1 = new InetSocketAddress("127.0.0.1", p1);
        InetSocketAddress vip0 = new InetSocketAddress("127.0.0.1", p0);
        DatagramSocket sgsn = h.client();

        List<GtpMalformedCorpus.Datagram> corpus = GtpMalformedCorpus.of(GtpMalformedCorpus.SEED, DATAGRAMS);
        long valid = corpus.stream().filter(GtpMalformedCorpus.Datagram::valid).count();
        int sent = 0;
        for (GtpMalformedCorpus.Datagram d : corpus) {
            GtpHarness.send(sgsn, d.bytes(), d.v0() ? vip0 : vip1);
            if (++sent % BATCH == 0) {
                awaitRead(sent);
            }
        }
        awaitRead(sent);
        await().atMost(WAIT).during(Duration.ofMillis(200)).until(() ->
                h.ggsns.stream().allMatch(g -> g.received.get() == g.handled.get()));

        Map<String, Integer> malformed = new TreeMap<>();
        String example = null;
        for (byte[] b : reached) {
            String p = StrictGtpChecker.problem(b);
            if (p != null) {
                malformed.merge(p, 1, Integer::sum);
                example = example == null ? HexFormat.of().formatHex(b) : example;
            }
        }
        int total = malformed.values().stream().mapToInt(Integer::intValue).sum();
        assertThat(malformed).as("%d malformed datagrams of %d reached a GGSN (e.g. %s)", total, DATAGRAMS, example)
                .isEmpty();
        assertThat(valid).isEqualTo(DATAGRAMS / 4);
        java.util.Set<String> arrived = new java.util.HashSet<>();
        reached.forEach(b -> arrived.add(withoutSequence(b)));
        List<String> lost = corpus.stream().filter(GtpMalformedCorpus.Datagram::valid).map(d -> withoutSequence(d.bytes()))
                .filter(v -> !arrived.contains(v)).toList();
        assertThat(lost).as("valid creates that did not reach a GGSN").isEmpty();
        assertThat(h.drops("GN", "internal_error") + h.drops("GN-V0", "internal_error")).isZero();
    }

    /** mclb rewrites the sequence number: compare the rest (v0 octets 4-5, v1 8-9, v2 with T 8-10). */
    private static String withoutSequence(byte[] m) {
        byte[] b = m.clone();
        int version = (b[0] & 0xFF) >>> 5;
        int at = version == 0 ? 4 : 8;
        for (int i = at; i < at + (version == 2 ? 3 : 2) && i < b.length; i++) {
            b[i] = 0;
        }
        return HexFormat.of().formatHex(b);
    }

    private void awaitRead(int sent) {
        await().atMost(WAIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .until(() -> h.counter(MetricNames.REQUESTS) >= sent);
    }
}
