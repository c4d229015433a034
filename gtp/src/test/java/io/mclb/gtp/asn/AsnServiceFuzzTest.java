package io.mclb.gtp.asn;

import io.mclb.farm.RealServer;
import io.mclb.gtp.FuzzBytes;
import io.mclb.gtp.lb.GtpModule;
import io.mclb.metrics.MetricNames;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The service-level fuzz of {@code service asn} with {@code sticky asn msid}, both ways: a seeded
 * stream of R6 messages (pre-attachment requests and acks in both NWG numberings, attachments,
 * path registrations, net exits, indications, retransmissions), mostly mutated, while the fake
 * gateways answer with part of their responses mutated (a broken header, another OP ID, another
 * transaction ID). Afterwards every datagram is accounted for exactly (acks and indications as
 * one-way), internal_error is 0, the service still answers, and the connections held equal the
 * MSID bindings open.
 */
class AsnServiceFuzzTest {
    private static final long SEED = Long.getLong("mclb.fuzz.seed", 0x61736e667a7aL);
    private static final int DATAGRAMS = Integer.getInteger("mclb.fuzz.datagrams", 2500);
    private static final int BATCH = 20;
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** (function, OP ID, message type) of the base station side of an MS's life. */
    private static final int[][] MESSAGES = {{9, 1, 1}, {9, 3, 3}, {9, 1, 6}, {9, 3, 8}, {9, 1, 4}, {9, 3, 6},
        {3, 1, 10}, {3, 3, 12}, {9, 1, 16}, {3, 1, 1}, {2, 4, 1}, {8, 1, 2}};
    /** Version, flags, function, OP ID/type, length, transaction ID and the first TLV's length. */
    private static final int[] HOT = {0, 1, 2, 3, 4, 5, 16, 17, 22, 23};

    @TempDir
    Path dir;
    private AsnHarness h;
    private final Random rnd = new Random(SEED);

    @AfterEach
    void close() throws Exception {
        if (h != null) {
            h.close();
        }
    }

    @Test
    void mutatedR6MessagesAndAnswersAreDroppedByReasonAndEveryDatagramIsAccountedFor() throws Exception {
        h = new AsnHarness(dir, 3, " sticky asn msid group 4\n idle asn request 5\n", "predictor leastconns");
        for (int i = 0; i < h.gateways.size(); i++) {
            Random r = new Random(SEED + 1 + i);
            h.gateways.get(i).answerHook = a -> r.nextInt(5) == 0 ? FuzzBytes.mutate(a, r, HOT) : a;
        }
        DatagramSocket bs = h.client("127.0.0.1");
        byte[] previous = null;
        int sent = 0;
        for (int i = 0; i < DATAGRAMS; i++) {
            byte[] b;
            if (previous != null && rnd.nextInt(20) == 0) {
                b = previous;
            } else {
                int[] m = MESSAGES[rnd.nextInt(MESSAGES.length)];
                b = R6.message(m[0], m[1], m[2], 0x0002_0000_0000L + rnd.nextInt(96), i & 0xFFFF);
                if (rnd.nextInt(3) != 0) {
                    b = FuzzBytes.mutate(b, rnd, HOT);
                }
            }
            h.send(bs, b);
            previous = b;
            sent++;
            h.pace(sent, BATCH, WAIT);
        }
        h.gateways.forEach(g -> g.answerHook = null);
        int clientSent = sent;
        h.awaitSettled(clientSent, () -> h.gateways.stream().allMatch(g -> g.received.get() == g.handled.get()),
                this::fromPeers, WAIT);
        assertThat(h.drops("internal_error")).isZero();
        double forwarded = h.counter(MetricNames.REAL_REQUESTS);
        assertThat(forwarded).isEqualTo(h.counter(MetricNames.ASSIGNMENTS) + h.counter(MetricNames.RETRANSMISSIONS)
                + h.counter(MetricNames.ONE_WAY));
        assertThat(h.gateways.stream().mapToInt(g -> g.received.get()).sum()).isEqualTo((int) forwarded);
        Map<String, Double> d = h.dropsByReason();
        for (String reason : List.of("asn_truncated_header", "asn_unsupported_version", "asn_length_too_short",
                "asn_length_exceeds_datagram", "asn_tlv_overruns_message", "asn_invalid_op_id", "asn_response_to_vip",
                "unknown_response", "malformed")) {
            assertThat(d.getOrDefault(reason, 0.0)).as("drops %s of %s", reason, d).isPositive();
        }
        assertThat(h.counter(MetricNames.ONE_WAY)).isPositive();
        assertThat(h.counter(MetricNames.RETRANSMISSIONS)).isPositive();
        assertThat(h.runtime.stickyTable().size(GtpModule.ASN_MSID)).isPositive();

        // still serving
        io.mclb.gtp.PeerHarness.drain(bs); // the fuzz's answers were never read: a full socket buffer would drop the next one
        h.send(bs, R6.preAttachmentReq(0x0003_0000_0001L, 0x7ABC));
        byte[] rsp;
        do {
            rsp = h.receive(bs);
        } while (R6.tid(rsp) != 0x7ABC);
        assertThat(R6.op(rsp)).isEqualTo(2);

        h.clock.advanceSeconds(20);
        await().atMost(WAIT).until(() -> h.runtime.vservers().get(AsnHarness.VS).transactionsActive().get() == 0);
        long held = 0;
        for (RealServer r : h.runtime.farms().get("ASNGW-FARM").reals()) {
            held += r.activeConnections();
        }
        assertThat(held).isEqualTo(h.module.bindings().size());
    }





    private long fromPeers() {
        return h.gateways.stream().mapToLong(p -> p.sent.get()).sum();
    }
}
