package io.mclb.gtp.mip;

import io.mclb.gtp.FuzzBytes;
import io.mclb.metrics.MetricNames;
import io.mclb.farm.RealServer;
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
 * "A malformed packet is dropped and counted by reason, never crashes a loop", through the whole
 * running {@code service ipmobile}, both ways: a seeded stream of registrations (new, renewals,
 * deregistrations, retransmissions, to 0.0.0.0, the VIP or a member) mostly mutated, while the
 * fake home agents answer with a code mix (130 moves a registration) and part of their replies
 * mutated. Afterwards every datagram is accounted for exactly, internal_error is 0, the service
 * still answers, and the connections held equal the bindings open.
 */
class MipServiceFuzzTest {
    private static final long SEED = Long.getLong("mclb.fuzz.seed", 0x6d6970667a7aL);
    private static final int DATAGRAMS = Integer.getInteger("mclb.fuzz.datagrams", 2500);
    private static final int BATCH = 20;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int[] CODES = {0, 0, 0, 1, 130, 131, 133, 136, 143};
    /** Type, extension type and length octets of a request with an NAI, and the Identification. */
    private static final int[] HOT = {0, 1, 2, 3, 8, 11, 23, 24, 25, 26, 40, 41};

    @TempDir
    Path dir;
    private MipHarness h;
    private final Random rnd = new Random(SEED);

    @AfterEach
    void close() throws Exception {
        if (h != null) {
            h.close();
        }
    }

    @Test
    void mutatedRegistrationsAndRepliesAreDroppedByReasonAndEveryDatagramIsAccountedFor() throws Exception {
        h = new MipHarness(dir, 3, "faildetect numconns 255");
        for (int i = 0; i < h.agents.size(); i++) {
            Random r = new Random(SEED + 1 + i);
            FakeHomeAgent a = h.agents.get(i);
            a.code = () -> CODES[r.nextInt(CODES.length)];
            a.answerHook = answer -> r.nextInt(5) == 0 ? FuzzBytes.mutate(answer, r, 0, 1, 2, 3, 12, 16, 19) : answer;
        }
        DatagramSocket fa = h.client("127.0.0.1");
        String[] homeAgents = {"0.0.0.0", "255.255.255.255", "127.0.0.1", h.agents.get(1).address()};
        byte[] previous = null;
        int sent = 0;
        for (int i = 0; i < DATAGRAMS; i++) {
            byte[] b;
            if (previous != null && rnd.nextInt(20) == 0) {
                b = previous; // retransmission
            } else if (rnd.nextInt(100) == 0) {
                b = FakeHomeAgent.reply(MipMessages.rrq("10.8.9.9", "0.0.0.0", 600, i, null), 0, 600,
                        new byte[] {127, 0, 0, 2}); // a reply sent to the VIP
            } else {
                int mn = rnd.nextInt(64);
                int lifetime = rnd.nextInt(8) == 0 ? 0 : 600;
                b = MipMessages.rrq("10.8." + (mn / 250) + "." + (mn % 250), homeAgents[rnd.nextInt(homeAgents.length)],
                        lifetime, ((long) i << 32) | i, rnd.nextInt(4) == 0 ? null : "mn" + mn + "@fuzz.example");
                if (rnd.nextInt(3) != 0) {
                    b = FuzzBytes.mutate(b, rnd, HOT);
                }
            }
            h.send(fa, b);
            previous = b;
            sent++;
            h.pace(sent, BATCH, WAIT);
        }
        h.agents.forEach(a -> a.answerHook = null);
        int clientSent = sent;
        h.awaitSettled(clientSent, () -> h.agents.stream().allMatch(a -> a.received.get() == a.handled.get()),
                this::fromPeers, WAIT);
        assertThat(h.drops("internal_error")).isZero();
        assertThat(h.counter(MetricNames.REQUESTS)).isEqualTo(clientSent);
        double forwarded = h.counter(MetricNames.REAL_REQUESTS);
        assertThat(forwarded).isEqualTo(h.counter(MetricNames.ASSIGNMENTS) + h.counter(MetricNames.RETRANSMISSIONS)
                + h.counter(MetricNames.REASSIGNMENTS, "reason", "cause"));
        assertThat(h.agents.stream().mapToInt(a -> a.received.get()).sum()).isEqualTo((int) forwarded);

        Map<String, Double> d = h.dropsByReason();
        for (String reason : List.of("mip_truncated", "mip_extension_overruns", "mip_unknown_type", "mip_reply_to_vip",
                "mip_malformed_reply", "unknown_response", "malformed")) {
            assertThat(d.getOrDefault(reason, 0.0)).as("drops %s of %s", reason, d).isPositive();
        }
        assertThat(h.counter(MetricNames.REASSIGNMENTS, "reason", "cause")).as("130 moved registrations").isPositive();
        assertThat(h.counter(MetricNames.RETRANSMISSIONS)).isPositive();
        assertThat(h.module.bindings().size()).as("bindings learnt").isPositive();

        // still serving
        io.mclb.gtp.PeerHarness.drain(fa); // the fuzz's answers were never read: a full socket buffer would drop the next one
        h.agents.forEach(a -> a.code = () -> 0);
        h.send(fa, MipMessages.rrq("10.7.0.1", "0.0.0.0", 600, 0x7777_7777_7FFF_FFF1L, "after@fuzz.example"));
        byte[] reply;
        do { // late answers of the fuzz may still be queued on the socket
            try {
                reply = h.receive(fa);
            } catch (java.net.SocketTimeoutException e) {
                throw new AssertionError("no answer after the fuzz; " + h.books(clientSent, fromPeers()) + " states "
                        + h.runtime.farms().get("HA-FARM").reals()[0].state() + " seen "
                        + h.agents.stream().map(FakeHomeAgent::count).toList(), e);
            }
        } while (java.nio.ByteBuffer.wrap(reply).getInt(16) != 0x7FFF_FFF1);
        assertThat(reply[1]).isZero();

        // once every request timed out, the home agents hold exactly the bindings' connections
        h.clock.advanceSeconds(20);
        await().atMost(WAIT).until(() -> h.runtime.vservers().get(MipHarness.VS).transactionsActive().get() == 0);
        long held = 0;
        for (RealServer r : h.runtime.farms().get("HA-FARM").reals()) {
            held += r.activeConnections();
        }
        assertThat(held).isEqualTo(h.module.bindings().size());
    }





    private long fromPeers() {
        return h.agents.stream().mapToLong(p -> p.sent.get()).sum();
    }
}
