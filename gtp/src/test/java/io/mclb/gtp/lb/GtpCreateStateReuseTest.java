package io.mclb.gtp.lb;

import io.mclb.binding.BindingTable;
import io.mclb.gtp.Tbcd;
import io.mclb.transaction.TransactionRelay;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Pooled create states ({@link GtpTxPool}) through the real relay: once transactions age out and
 * their objects are reused, their states come back for later creates, and every session still
 * opens with its own create's subscriber. A state handed to two live transactions would show as a
 * session opened under another create's IMSI, or one IMSI's TEID under another's.
 */
class GtpCreateStateReuseTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final int BURST = 48;

    @TempDir
    Path dir;
    private GtpHarness h;
    private InetSocketAddress vip;

    @AfterEach
    void close() {
        if (h != null) {
            h.close();
        }
    }

    private void start(List<FakeGgsn> farm, String predictor) throws Exception {
        int port = GtpHarness.freePort("127.0.0.1");
        vip = new InetSocketAddress("127.0.0.1", port);
        h.start(h.parse(dir, "mclb data-dir " + dir + "\nmclb sticky entries 10000\nmclb event-loops 1\n"
                + "ip slb serverfarm F\n predictor " + predictor + "\n"
                + GtpHarness.reals(farm, "  faildetect numconns 255\n")
                + "ip slb vserver V\n virtual 127.0.0.1 udp " + port + " service gtp-inspect\n serverfarm F\n"
                + " sticky gtp imsi group 1\n idle gtp request 10\n inservice\n"));
    }

    @Test
    void reusedStatesOpenEverySessionUnderItsOwnSubscriberThroughRejectsAndReassignments() throws Exception {
        h = new GtpHarness();
        FakeGgsn rejecting = h.ggsn("127.0.0.2");
        FakeGgsn accepting = h.ggsn("127.0.0.3");
        start(List.of(rejecting, accepting), "roundrobin");
        DatagramSocket sgsn = h.client();
        int seq = 1;
        // round 0: every create the first GGSN sees is refused for want of resources and reassigned
        rejecting.v1Cause = 199;
        seq = burst(sgsn, 0, seq, 128);
        assertThat(rejecting.creates.get()).as("some creates were reassigned").isPositive();
        // round 1: plain rejects (no session, state retired with its transaction)
        rejecting.v1Cause = 128;
        accepting.v1Cause = 201;
        Map<Integer, Integer> refused = new HashMap<>();
        seq = burstExpecting(sgsn, 1, seq, refused);
        assertThat(refused).containsValue(201);
        accepting.v1Cause = 128;
        // rounds 2 and 3 reuse the states rounds 0 and 1 left behind
        for (int round = 2; round < 4; round++) {
            seq = burst(sgsn, round, seq, 128);
        }
        GtpTxPool pool = pool();
        assertThat(pool.refusedTwice()).isZero();
        assertThat(pool.made()).as("states made for %d creates and retransmissions", 4 * BURST)
                .isLessThan(2L * BURST);
        for (int i = 0; i < BURST; i++) {
            if (refused.get(i) != null && refused.get(i) != 128) {
                assertThat(h.factory.module().sessions().get(imsiRaw(1, i), 5)).as("a rejected create opened nothing")
                        .isNull();
            }
        }
    }

    @Test
    void aRetransmittedCreateKeepsItsStateWhileTheRetransmissionsCopyGoesToTheNextCreate() throws Exception {
        h = new GtpHarness();
        FakeGgsn ggsn = h.ggsn("127.0.0.2");
        start(List.of(ggsn), "roundrobin");
        DatagramSocket sgsn = h.client();
        ggsn.silent = true;
        byte[] a = GtpHarness.v1Create(imsi(9, 1), 1);
        byte[] b = GtpHarness.v1Create(imsi(9, 2), 2);
        GtpHarness.send(sgsn, a, vip);
        await().atMost(WAIT).until(() -> ggsn.received.get() == 1);
        GtpHarness.send(sgsn, a, vip); // resent: its classification's state is retired at once
        await().atMost(WAIT).until(() -> ggsn.received.get() == 2);
        GtpHarness.send(sgsn, b, vip); // takes that retired state, never a's own
        await().atMost(WAIT).until(() -> ggsn.received.get() == 3);
        ggsn.silent = false;
        Map<Long, Integer> teids = new HashMap<>();
        for (byte[] m : List.of(a, b)) {
            GtpHarness.send(sgsn, m, vip);
            byte[] answer = GtpHarness.receive(sgsn);
            assertThat(GtpHarness.v1Cause(answer)).isEqualTo(128);
            teids.put(GtpHarness.v1Seq(answer) == 1 ? imsiRaw(9, 1) : imsiRaw(9, 2), teid(answer));
        }
        BindingTable<GtpSession> sessions = h.factory.module().sessions();
        for (Map.Entry<Long, Integer> e : teids.entrySet()) {
            assertThat(sessions.get(e.getKey(), 5)).as("session of %x", e.getKey()).isNotNull()
                    .extracting(GtpSession::teid).isEqualTo(e.getValue());
        }
        // made: a's, its first retransmission's (which b then took) and its second one's (while b held
        // the other); b's own resend reused that third one. A fourth would mean a live state came back.
        assertThat(pool().made()).isEqualTo(3);
    }

    /** {@link #BURST} creates of round {@code round}'s IMSIs in flight at once; each answer's session checked. */
    private int burst(DatagramSocket sgsn, int round, int seq, int cause) throws Exception {
        Map<Integer, Integer> causes = new HashMap<>();
        int next = burstExpecting(sgsn, round, seq, causes);
        assertThat(causes.values()).as("round %d", round).containsOnly(cause);
        return next;
    }

    private int burstExpecting(DatagramSocket sgsn, int round, int seq, Map<Integer, Integer> causes) throws Exception {
        Map<Integer, Integer> bySeq = new HashMap<>();
        for (int i = 0; i < BURST; i++) {
            bySeq.put(seq + i, i);
            GtpHarness.send(sgsn, GtpHarness.v1Create(imsi(round, i), seq + i), vip);
        }
        BindingTable<GtpSession> sessions = h.factory.module().sessions();
        for (int n = 0; n < BURST; n++) {
            byte[] answer = GtpHarness.receive(sgsn);
            int i = bySeq.get(GtpHarness.v1Seq(answer));
            int cause = GtpHarness.v1Cause(answer);
            causes.put(i, cause);
            if (cause == 128) {
                GtpSession s = sessions.get(imsiRaw(round, i), 5);
                assertThat(s).as("session of round %d create %d", round, i).isNotNull();
                assertThat(s.teid()).as("the TEID this create's own answer carried").isEqualTo(teid(answer));
            }
        }
        // the answered transactions linger; past it the ager forgets them and the next round reuses them
        h.clock.advance(Duration.ofSeconds(20));
        await().atMost(WAIT).until(() -> h.runtime.vservers().get("V").transactionsActive().get() == 0);
        return seq + BURST;
    }

    private GtpTxPool pool() {
        TransactionRelay<?> relay = (TransactionRelay<?>) h.runtime.vservers().get("V").relaysOnPort(vip.getPort()).get(0);
        return ((GtpInspector) relay.inspector()).pool();
    }

    private static String imsi(int round, int i) {
        return String.format("26201%02d%08d", round, i);
    }

    private static long imsiRaw(int round, int i) {
        return Tbcd.encodeRaw(imsi(round, i));
    }

    /** The TEID Control Plane IE (17) of an accepted FakeGgsn v1 create answer: cause, recovery, then it. */
    private static int teid(byte[] answer) {
        assertThat(answer[16]).isEqualTo((byte) 17);
        return ByteBuffer.wrap(answer, 17, 4).getInt();
    }
}
