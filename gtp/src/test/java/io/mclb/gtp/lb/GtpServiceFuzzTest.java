package io.mclb.gtp.lb;

import io.mclb.farm.RealServer;
import io.mclb.gtp.GtpTestMessages;
import io.mclb.gtp.GtpTestMessages.Bytes;
import io.mclb.metrics.MetricNames;
import io.mclb.sticky.StickyKind;
import io.mclb.vserver.VirtualServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * "A malformed packet is dropped and counted by reason, never crashes a loop", through the whole
 * running {@code service gtp-inspect} with {@code sticky gtp imsi}, in both directions: a seeded
 * stream of mutated v0/v1/v2 requests (creates, deletes, updates, echoes, notifications, TEID
 * follow-ups of learned sessions) interleaved with valid creates goes to the virtual addresses,
 * while the fake GGSNs answer part of what reaches them with mutated answers that keep the
 * upstream sequence number, so they reach the inspector's response path (cause inspection,
 * reassignment, session learning and closing). Afterwards every datagram is accounted for, the
 * loop still answers, and session, connection and sticky counts agree with each other.
 *
 * <p>The mutations are seeded; which GGSN a request reaches (and so which answer mutation it
 * meets) also depends on timing, so a failure prints the last datagrams of both directions.
 */
class GtpServiceFuzzTest {
    /** Fixed, so a run is repeatable; {@code -Dmclb.fuzz.seed=N -Dmclb.fuzz.datagrams=M} explore further by hand. */
    private static final long SEED = Long.getLong("mclb.fuzz.seed", 0x6D636C6267747066L);
    /** Datagrams sent to the virtual addresses: every path many times over in ~2 s. */
    private static final int DATAGRAMS = Integer.getInteger("mclb.fuzz.datagrams", 6000);
    /** Sent before waiting for mclb to have read them all, so no socket buffer on the way overflows. */
    private static final int BATCH = 20;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String GN = "GGSN-GN";
    private static final String V0 = "GGSN-GN-V0";
    private static final HexFormat HEX = HexFormat.of();
    /** Message types a mutation swaps in: v1 and v2 requests and responses, notifications, and nonsense. */
    private static final int[] TYPES = {1, 2, 16, 17, 18, 19, 20, 21, 26, 31, 32, 33, 34, 35, 36, 37, 0xE0, 0xE1,
        0xE2, 0xF0, 0xFF, 0};

    @TempDir
    Path dir;
    private GtpHarness h;
    private InetSocketAddress vip1;
    private InetSocketAddress vip0;
    private final Random rnd = new Random(SEED);
    /**
     * Picks among the TEIDs the GGSNs handed out so far, a number that depends on timing: kept
     * apart so the request stream drawn from {@link #rnd} stays the same from run to run.
     */
    private final Random teidPick = new Random(SEED + 100);
    private final List<String> imsis = new ArrayList<>();
    /** The last datagrams each way, for the failure message. */
    private final Deque<String> lastRequests = new ArrayDeque<>();
    private final Deque<String> lastAnswers = new ArrayDeque<>();
    /**
     * For a stretch of the run every GGSN refuses creates with a node-failure cause, so a create
     * is moved until no real is left (the reassignment's no_real_available end). Only a stretch:
     * the reals must answer in between or numconns fails them out.
     */
    private volatile boolean refuseCreates;

    @AfterEach
    void close() {
        if (h != null) {
            h.close();
        }
    }

    private void start() throws Exception {
        h = new GtpHarness();
        List<FakeGgsn> farm = h.threeGgsns();
        int p1 = GtpHarness.freePort("127.0.0.1");
        int p0 = GtpHarness.freePort("127.0.0.1");
        vip1 = new InetSocketAddress("127.0.0.1", p1);
        vip0 = new InetSocketAddress("127.0.0.1", p0);
        String cfg = GtpHarness.fuzzGlobalsAndReals(dir, farm, " predictor leastconns\n failaction gtp purge\n")
                + "ip slb vserver " + GN + "\n"
                + " virtual 127.0.0.1 udp " + p1 + " service gtp-inspect\n"
                + " serverfarm GGSN-FARM\n"
                + " sticky gtp imsi group 1\n"
                + " idle gtp request 90\n"
                + " idle gtp imsi 3600\n"
                + " gtp notification cac 1\n"
                + " inservice\n"
                + "ip slb vserver " + V0 + "\n"
                + " virtual 127.0.0.1 udp " + p0 + " service gtp-inspect\n"
                + " serverfarm GGSN-FARM\n"
                + " sticky gtp imsi group 1\n"
                + " inservice\n";
        h.start(h.parse(dir, cfg));
        for (int i = 0; i < 48; i++) {
            imsis.add(String.format("2620100000%05d", i * 7 + 1));
        }
    }

    @Test
    void mutatedRequestsAndAnswersAreDroppedByReasonAndNeverBreakTheLoop() throws Exception {
        start();
        for (int i = 0; i < h.ggsns.size(); i++) {
            Random r = new Random(SEED + 1 + i);
            int ggsn = i;
            h.ggsns.get(i).answerHook = (request, answer) -> record(answer(answer, ggsn, r));
        }
        DatagramSocket sgsn = h.client();
        // notifications are honoured only from a real's address
        DatagramSocket fromReal = h.client("127.0.0.2");
        byte[] previous = null;
        InetSocketAddress previousTo = vip1;
        int sent = 0;
        for (int i = 0; i < DATAGRAMS; i++) {
            refuseCreates = i >= DATAGRAMS / 2 && i < DATAGRAMS / 2 + DATAGRAMS / 20;
            byte[] b;
            InetSocketAddress to;
            boolean notification = false;
            if (previous != null && rnd.nextInt(30) == 0) {
                b = previous; // a client retransmission: the same real, the same upstream id
                to = previousTo;
            } else if (i % 6 == 0) {
                String imsi = imsi();
                int seq = seq(i);
                switch ((i / 6) % 3) {
                    case 0 -> b = GtpHarness.v1Create(imsi, seq);
                    case 1 -> b = GtpHarness.v2Create(imsi, seq);
                    default -> b = GtpHarness.v0Create(imsi, seq);
                }
                to = (b[0] & 0xE0) == 0 ? vip0 : vip1;
            } else {
                int kind = rnd.nextInt(15);
                b = template(kind, seq(i));
                notification = kind >= 13;
                to = (b[0] & 0xE0) == 0 ? vip0 : vip1;
                if (rnd.nextInt(8) == 0) {
                    to = to == vip0 ? vip1 : vip0; // a v1 message on the v0 address is still just bytes
                }
                if (rnd.nextInt(7) != 0) {
                    b = mutate(b, rnd);
                }
            }
            remember(lastRequests, "-> " + (to == vip0 ? "v0 " : "v1 ") + HEX.formatHex(b));
            GtpHarness.send(notification ? fromReal : sgsn, b, to);
            previous = b;
            previousTo = to;
            sent++;
            if (sent % BATCH == 0) {
                awaitRead(sent);
                assertThat(drops("internal_error")).as("internal_error after %d datagrams; last ones:%n%s", sent,
                        lastDatagrams()).isZero();
            }
        }
        awaitRead(sent);
        refuseCreates = false;
        for (FakeGgsn g : h.ggsns) {
            g.answerHook = null;
        }

        // quiet: mclb read every client datagram, every GGSN handled all it got, and the books
        // balance (and stay balanced: nothing still on the way)
        int clientSent = sent;
        await().atMost(WAIT).during(Duration.ofMillis(300)).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
            assertThat(ggsnsIdle()).as("GGSNs idle").isTrue();
            assertThat(balance(clientSent)).as(books(clientSent)).isZero();
        });

        assertThat(drops("internal_error")).as("last datagrams:%n%s", lastDatagrams()).isZero();
        // an exhausted id space counts a drop after counting the assignment or retransmission: rule it out
        assertThat(drops("id_space_exhausted")).isZero();
        assertThat(sum(MetricNames.REQUESTS)).isEqualTo(clientSent);
        /*
         * Every datagram into mclb (R from clients, G from GGSNs) ends in exactly one counted outcome:
         *   R = drops(request side) + local answers at the VIP + assignments + retransmissions
         *   G = drops(answer side) + echoes answered to the GGSN (Eg) + answers forwarded (F) + cause reassignments
         * The two directions share one mclb.drops{vserver,reason} family with overlapping reasons
         * (no_real_available, malformed, id_space_exhausted can come from either side), so the
         * drops cannot be split per direction; the exact relation the metrics support is the sum,
         * with responses P = local answers at the VIP + F, and Eg counted by the GGSNs:
         *   R + G = drops + assignments + retransmissions + P + Eg + reassignments{cause}
         * That is balance(...) == 0, awaited above; the parts are checked below too.
         */
        long forwardedToReals = (long) sum(MetricNames.REAL_REQUESTS);
        long assignments = (long) sum(MetricNames.ASSIGNMENTS);
        long retransmissions = (long) sum(MetricNames.RETRANSMISSIONS);
        long causeReassignments = (long) sum(MetricNames.REASSIGNMENTS, "reason", "cause");
        int echoAnswers = h.ggsns.stream().mapToInt(g -> g.echoAnswers.get()).sum();
        // every request sent to a real was a counted assignment, retransmission or cause reassignment
        assertThat(forwardedToReals).isEqualTo(assignments + retransmissions + causeReassignments);
        // and arrived there; mclb sent the GGSNs nothing else but answers to their echoes
        assertThat(h.ggsns.stream().mapToLong(g -> g.received.get()).sum())
                .isEqualTo(forwardedToReals + echoAnswers);
        assertThat(sum(MetricNames.LOCAL_ANSWERS) - echoAnswers).as("local answers at the VIPs")
                .isBetween(0.0, sum(MetricNames.RESPONSES));
        assertThat(balance(clientSent)).isZero();
        assertReachedEveryPath(echoAnswers, causeReassignments, retransmissions);

        // the loops still serve: valid v1, v2 and v0 creates and an echo are answered through the VIPs
        assertServes("262019999900001");
        assertSessionAndStickyCountsAgree();

        // once every request timed out, the reals hold exactly the learned sessions' connections
        h.clock.advanceSeconds(100);
        await().atMost(WAIT).until(() -> transactions() == 0);
        assertThat(totalConns()).as("connections held = sessions open").isEqualTo(h.factory.module().sessions().size());
        assertSessionAndStickyCountsAgree();

        // and once the sessions idled out, nothing at all; the sweep the sweeper would do within
        // its 10 s period is run here, so the sticky entries (all 3600 s old now) go too
        h.clock.advanceSeconds(3600);
        await().atMost(WAIT).until(() -> h.factory.module().sessions().size() == 0 && transactions() == 0);
        assertThat(totalConns()).isZero();
        h.runtime.stickyTable().expire(h.clock.epochMillis());
        assertSessionAndStickyCountsAgree();
        assertThat(h.runtime.stickyTable().size()).isZero();
        assertServes("262019999900002");
        assertThat(drops("internal_error")).isZero();
    }

    // ---- accounting ----

    private void awaitRead(int sent) {
        await().atMost(WAIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .until(() -> sum(MetricNames.REQUESTS) >= sent);
    }

    private boolean ggsnsIdle() {
        return h.ggsns.stream().allMatch(g -> g.received.get() == g.handled.get());
    }

    /** (datagrams into mclb) - (counted outcomes); see the comment at its use. */
    private double balance(int clientSent) {
        long ggsnSent = h.ggsns.stream().mapToLong(g -> g.sent.get()).sum();
        long echoAnswers = h.ggsns.stream().mapToLong(g -> g.echoAnswers.get()).sum();
        double outcomes = sum(MetricNames.DROPS) + sum(MetricNames.ASSIGNMENTS) + sum(MetricNames.RETRANSMISSIONS)
                + sum(MetricNames.RESPONSES) + echoAnswers + sum(MetricNames.REASSIGNMENTS, "reason", "cause");
        return clientSent + ggsnSent - outcomes;
    }

    private String books(int clientSent) {
        return "from clients " + clientSent + ", from GGSNs " + h.ggsns.stream().mapToLong(g -> g.sent.get()).sum()
                + "; drops " + dropsByReason() + ", assignments " + sum(MetricNames.ASSIGNMENTS)
                + ", retransmissions " + sum(MetricNames.RETRANSMISSIONS) + ", responses " + sum(MetricNames.RESPONSES)
                + ", echoes answered to GGSNs " + h.ggsns.stream().mapToLong(g -> g.echoAnswers.get()).sum()
                + ", cause reassignments " + sum(MetricNames.REASSIGNMENTS, "reason", "cause");
    }

    /** A counter family summed over both virtual servers (and every other tag not given). */
    private double sum(String name, String... tags) {
        return h.runtime.registry().find(name).tags(tags).counters().stream().mapToDouble(Counter::count).sum();
    }

    private double drops(String reason) {
        return h.drops(GN, reason) + h.drops(V0, reason);
    }

    private Map<String, Double> dropsByReason() {
        Map<String, Double> m = new TreeMap<>();
        for (Counter c : h.runtime.registry().find(MetricNames.DROPS).counters()) {
            m.merge(c.getId().getTag("reason"), c.count(), Double::sum);
        }
        return m;
    }

    private long transactions() {
        return h.runtime.vservers().values().stream().mapToLong(v -> v.transactionsActive().get()).sum();
    }

    private long totalConns() {
        long n = 0;
        for (RealServer r : h.runtime.farms().get("GGSN-FARM").reals()) {
            assertThat(r.activeConnections()).isNotNegative();
            n += r.activeConnections();
        }
        return n;
    }

    /** The fuzz must have reached the paths it is about, or a green run proves little. */
    private void assertReachedEveryPath(long echoAnswers, long causeReassignments, long retransmissions) {
        Map<String, Double> d = dropsByReason();
        for (String reason : List.of("gtp_truncated_header", "gtp_unsupported_version", "gtp_length_exceeds_datagram",
                "gtp_length_too_short", "gtp_ie_overruns_message", "gtp_imsi_not_bcd", "gtp_unknown_teid",
                "gtp_response_to_vip", "gtp_notification_refused", "oversized", "unknown_response", "malformed",
                "rejected_by_inspector")) {
            assertThat(d.getOrDefault(reason, 0.0)).as("drops %s of %s", reason, d).isPositive();
        }
        assertThat(sum(MetricNames.LOCAL_ANSWERS)).isPositive();
        assertThat(echoAnswers).as("echoes from a GGSN answered on the upstream socket").isPositive();
        assertThat(causeReassignments).as("node-failure causes moved a create").isPositive();
        assertThat(d.getOrDefault("no_real_available", 0.0)).as("a create every real refused").isPositive();
        assertThat(h.factory.module().sessions().aliasCollisions()).as("TEIDs learned twice").isPositive();
        assertThat(io.mclb.testing.Metrics.sample(h.runtime.registry().scrape(), "mclb_gtp_teid_collisions_total"))
                .as("exported as a counter").isEqualTo(h.factory.module().sessions().aliasCollisions());
        assertThat(retransmissions).isPositive();
        assertThat(sum(GtpMetrics.CAUSES, "version", "v0")).isPositive();
        assertThat(sum(GtpMetrics.CAUSES, "version", "v1")).isPositive();
        assertThat(sum(GtpMetrics.CAUSES, "version", "v2")).isPositive();
        assertThat(sum(GtpMetrics.NOTIFICATIONS)).isPositive();
        assertThat(h.factory.module().sessions().size()).as("sessions learned").isPositive();
        // TEID and TID follow-ups of learned sessions reached their GGSNs (the unknown ones are drops above)
        assertThat(h.ggsns.stream().mapToInt(g -> g.deletes.get()).sum()).isPositive();
        assertThat(h.ggsns.stream().mapToInt(g -> g.others.get()).sum()).isPositive();
    }

    /**
     * Each real's connections and sticky clients are never negative, and its clients are the
     * entries naming it. Awaited: the sticky sweeper may be removing an expired entry meanwhile.
     */
    private void assertSessionAndStickyCountsAgree() {
        await().atMost(WAIT).untilAsserted(this::sessionAndStickyCountsAgree);
    }

    private void sessionAndStickyCountsAgree() {
        Map<Long, Long> entries = new HashMap<>();
        long[] all = {0, 0};
        h.runtime.stickyTable().forEach((k, v) -> {
            entries.merge(v.realId(), 1L, Long::sum);
            all[0]++;
            if (k.kind() == GtpModule.IMSI) {
                all[1]++;
            }
            return true;
        });
        assertThat(h.runtime.stickyTable().size()).isEqualTo(all[0]);
        assertThat(h.runtime.stickyTable().size(GtpModule.IMSI)).isEqualTo(all[1]).isEqualTo(all[0]);
        for (RealServer r : h.runtime.farms().get("GGSN-FARM").reals()) {
            assertThat(r.activeConnections()).isNotNegative();
            assertThat(r.clients()).as("sticky clients of %s", r.label()).isEqualTo(entries.getOrDefault(r.id(), 0L));
        }
        for (Gauge g : h.runtime.registry().find(GtpMetrics.SESSIONS).gauges()) {
            assertThat(g.value()).isEqualTo(h.factory.module().sessions().size());
        }
        for (Gauge g : h.runtime.registry().find(MetricNames.SESSIONS_ACTIVE).gauges()) {
            assertThat(g.value()).isNotNegative();
        }
        for (Gauge g : h.runtime.registry().find(MetricNames.REAL_CLIENTS).gauges()) {
            assertThat(g.value()).isNotNegative();
        }
    }

    /** A fresh SGSN gets valid answers through both virtual addresses. */
    private void assertServes(String imsi) throws Exception {
        DatagramSocket c = h.client();
        GtpHarness.send(c, GtpHarness.v1Create(imsi, 0x5101), vip1);
        byte[] a1 = GtpHarness.receive(c);
        assertThat(a1[1] & 0xFF).isEqualTo(17);
        assertThat(GtpHarness.v1Seq(a1)).isEqualTo(0x5101);
        assertThat(GtpHarness.v1Cause(a1)).isEqualTo(128);
        GtpHarness.send(c, GtpHarness.v2Create(imsi, 0x5102), vip1);
        byte[] a2 = GtpHarness.receive(c);
        assertThat(a2[1] & 0xFF).isEqualTo(33);
        assertThat(a2[16] & 0xFF).as("v2 cause").isEqualTo(16);
        GtpHarness.send(c, GtpHarness.v0Create(imsi, 0x5103), vip0);
        byte[] a0 = GtpHarness.receive(c);
        assertThat(a0[1] & 0xFF).isEqualTo(17);
        assertThat(((a0[4] & 0xFF) << 8) | (a0[5] & 0xFF)).isEqualTo(0x5103);
        GtpHarness.send(c, GtpTestMessages.v1(1, 0, 0x5104, new byte[0]), vip1);
        byte[] e = GtpHarness.receive(c);
        assertThat(e[1] & 0xFF).isEqualTo(2);
        assertThat(GtpHarness.v1Seq(e)).isEqualTo(0x5104);
    }

    // ---- requests ----

    private String imsi() {
        return imsis.get(rnd.nextInt(imsis.size()));
    }

    /**
     * Distinct for the default run (so most requests open transactions; mutations and the
     * deliberate retransmissions make some collide), wrapping only in long runs.
     */
    private static int seq(int i) {
        return (i * 7 + 1) & 0xFFFF;
    }

    /** A TEID of a session mclb probably learned, else one it surely did not, else 0. */
    private int teid() {
        int k = rnd.nextInt(10);
        int unknown = rnd.nextInt();
        if (k < 7) {
            int t = h.ggsns.get(teidPick.nextInt(h.ggsns.size())).createdTeid(teidPick);
            return t != 0 ? t : unknown;
        }
        return k < 9 ? unknown : 0;
    }

    /** A valid message of kind {@code kind} (13, 14: notifications, sent from a real's address). */
    private byte[] template(int kind, int seq) {
        String imsi = imsi();
        byte[] ebi5 = new Bytes().ie2(93, 0, new Bytes().ie2(73, 0, new byte[] {5}).bytes()).bytes();
        return switch (kind) {
            case 0 -> GtpHarness.v1Create(imsi, seq);
            // a secondary PDP context: a create addressed to a known session's TEID
            case 1 -> GtpTestMessages.v1(16, teid(), seq, new Bytes().u8(14).u8(0).u8(16).u32(2).u8(17).u32(2)
                    .u8(20).u8(6).tlv(131, GtpTestMessages.APN_INTERNET).bytes());
            case 2 -> GtpHarness.v1Delete(teid(), seq, rnd.nextBoolean() ? 5 : 6);
            case 3 -> GtpTestMessages.v1(18, teid(), seq, new Bytes().u8(14).u8(0).u8(16).u32(1).u8(20).u8(5).bytes());
            case 4 -> GtpTestMessages.v1(1, 0, seq, new Bytes().u8(14).u8(3).bytes());
            case 5 -> GtpHarness.v2Create(imsi, seq);
            case 6 -> GtpHarness.v2Delete(teid(), seq);
            case 7 -> GtpTestMessages.v2(34, teid(), seq, ebi5);
            case 8 -> new Bytes().u8(0x40).u8(1).u16(9).u24(seq).u8(0).ie2(3, 0, new byte[] {3}).bytes();
            case 9 -> GtpHarness.v0Create(imsi, seq);
            case 10 -> v0(20, seq, imsi, new byte[0]);
            case 11 -> v0(18, seq, imsi, new Bytes().u8(14).u8(0).u8(16).u16(1).u8(17).u16(1).bytes());
            case 12 -> v0(1, seq, "000000000000000", new byte[0]);
            default -> {
                Bytes ies = new Bytes().u8(2).raw(GtpTestMessages.tbcd8(imsi));
                if (rnd.nextBoolean()) {
                    ies.u8(20).u8(5);
                }
                yield GtpTestMessages.v1(kind == 13 ? GtpNotifications.DELETE : GtpNotifications.CAC_FAILURE, 0, seq,
                        ies.bytes());
            }
        };
    }

    /** A v0 message of {@code type} whose TID names ({@code imsi}, NSAPI 0) as sgsnemu writes it. */
    private static byte[] v0(int type, int seq, String imsi, byte[] ies) {
        return withHeader(Arrays.copyOf(GtpHarness.v0Create(imsi, seq), 20), type, ies);
    }

    private static byte[] withHeader(byte[] header, int type, byte[] ies) {
        header[1] = (byte) type;
        header[2] = (byte) (ies.length >>> 8);
        header[3] = (byte) ies.length;
        return new Bytes().raw(header).raw(ies).bytes();
    }

    /** One to three seeded mutations; now and then an oversized datagram. */
    static byte[] mutate(byte[] seed, Random r) {
        byte[] b = seed;
        for (int n = 1 + r.nextInt(3); n > 0; n--) {
            b = mutateOnce(b, r);
        }
        if (r.nextInt(300) == 0) {
            b = Arrays.copyOf(b, VirtualServer.MAX_DATAGRAM - 10 + r.nextInt(200));
        }
        return b;
    }

    private static byte[] mutateOnce(byte[] seed, Random r) {
        if (seed.length < 4) {
            byte[] b = Arrays.copyOf(seed, seed.length + 1);
            b[seed.length] = (byte) r.nextInt(256);
            return b;
        }
        byte[] b = seed.clone();
        switch (r.nextInt(11)) {
            case 0 -> b[r.nextInt(b.length)] = (byte) r.nextInt(256);
            case 1 -> {
                for (int i = r.nextInt(4) + 1; i > 0; i--) {
                    b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
                }
            }
            case 2 -> b = Arrays.copyOf(b, r.nextInt(b.length)); // down to empty
            case 3 -> {
                b = Arrays.copyOf(b, b.length + 1 + r.nextInt(40));
                for (int i = seed.length; i < b.length; i++) {
                    b[i] = (byte) r.nextInt(256);
                }
            }
            case 4 -> setLength(b, r.nextInt(0x10000));
            case 5 -> setLength(b, (((b[2] & 0xFF) << 8) | (b[3] & 0xFF)) + r.nextInt(9) - 4);
            case 6 -> b[0] = (byte) ((r.nextInt(8) << 5) | (b[0] & 0x1F)); // another version, same flags
            case 7 -> b[1] = (byte) (r.nextBoolean() ? TYPES[r.nextInt(TYPES.length)] : r.nextInt(256));
            case 8 -> b[0] = (byte) ((b[0] & 0xE0) | r.nextInt(32)); // PT, E/S/PN or P/T flags
            case 9 -> b = rewrap(b, r.nextInt(3), sequence(b), r);
            default -> {
                // the IE area: types and lengths
                int p = Math.min(b.length - 1, 12 + r.nextInt(Math.max(1, b.length - 12)));
                b[p] = (byte) r.nextInt(256);
            }
        }
        return b;
    }

    private static void setLength(byte[] b, int len) {
        b[2] = (byte) (len >>> 8);
        b[3] = (byte) len;
    }

    // ---- answers ----

    /** Where the sequence number of a message with these first octets ends (the octets to keep). */
    private static int sequenceEnd(byte[] b) {
        return switch ((b[0] & 0xFF) >>> 5) {
            case 0 -> 6;
            case 1 -> 10;
            default -> (b[0] & 0x08) != 0 ? 11 : 7;
        };
    }

    /** The 16-bit sequence (mclb's upstream id) of a well-formed header. */
    private static int sequence(byte[] b) {
        int end = sequenceEnd(b);
        return b.length < end ? 0 : ((b[end - 2] & 0xFF) << 8) | (b[end - 1] & 0xFF);
    }

    /** The IEs of {@code b} under a fresh header of GTP {@code version} with the same type and sequence. */
    private static byte[] rewrap(byte[] b, int version, int seq, Random r) {
        int v = (b[0] & 0xFF) >>> 5;
        int ieStart = v == 0 ? 20 : v == 1 ? 12 : (b[0] & 0x08) != 0 ? 12 : 8;
        byte[] ies = b.length > ieStart ? Arrays.copyOfRange(b, ieStart, b.length) : new byte[0];
        int type = b[1] & 0xFF;
        return switch (version) {
            case 0 -> withHeader(new Bytes().u8(0x1E).u8(type).u16(0).u16(seq).u16(0).u8(0xFF).u24(0xFFFFFF)
                    .u32(r.nextInt()).u32(r.nextInt()).bytes(), type, ies);
            case 1 -> GtpTestMessages.v1(type, r.nextBoolean() ? 0 : r.nextInt(), seq, ies);
            default -> GtpTestMessages.v2(type, r.nextBoolean() ? 0 : r.nextInt(), seq, ies);
        };
    }

    /** What a GGSN sends instead of {@code answer}. */
    private List<byte[]> answer(byte[] answer, int ggsn, Random r) {
        if (refuseCreates && isCreateAnswer(answer)) {
            byte[] b = answer.clone();
            int[] nodeFailure = (b[0] & 0xE0) == 0x40 ? new int[] {72, 73, 84, 91} : new int[] {199, 204, 211, 212};
            setCause(b, nodeFailure[r.nextInt(nodeFailure.length)]);
            return List.of(b);
        }
        return mutateAnswer(answer, ggsn, r);
    }

    private static boolean isCreateAnswer(byte[] b) {
        return (b[1] & 0xFF) == ((b[0] & 0xE0) == 0x40 ? 33 : 17);
    }

    /**
     * About half the answers unchanged; the rest with a random cause (accept, node failure,
     * non-existent, anything), damaged after the sequence number, truncated, extended, with a
     * wrong length, another version or type, turned into an echo request, with another sequence
     * number, with another session's TEID, or sent twice.
     */
    private List<byte[]> mutateAnswer(byte[] answer, int ggsn, Random r) {
        int kind = r.nextInt(30);
        if (kind >= 16) {
            return List.of(answer);
        }
        byte[] b = answer.clone();
        int keep = Math.min(sequenceEnd(b), b.length);
        switch (kind) {
            case 0, 1 -> setCause(b, r);
            case 2 -> b[keep + r.nextInt(Math.max(1, b.length - keep)) - (keep == b.length ? 1 : 0)] =
                    (byte) r.nextInt(256);
            case 3 -> b = Arrays.copyOf(b, keep + r.nextInt(b.length - keep + 1));
            case 4 -> {
                b = Arrays.copyOf(b, b.length + 1 + r.nextInt(30));
                for (int i = answer.length; i < b.length; i++) {
                    b[i] = (byte) r.nextInt(256);
                }
            }
            case 5 -> setLength(b, r.nextBoolean() ? r.nextInt(0x10000)
                    : (((b[2] & 0xFF) << 8) | (b[3] & 0xFF)) + r.nextInt(9) - 4);
            case 6 -> b = rewrap(b, r.nextInt(3), sequence(b), r);
            case 7 -> b[1] = (byte) (r.nextBoolean() ? TYPES[r.nextInt(TYPES.length)] : r.nextInt(256));
            case 8 -> {
                setCause(b, r);
                b[keep + r.nextInt(Math.max(1, b.length - keep)) - (keep == b.length ? 1 : 0)] ^=
                        (byte) (1 << r.nextInt(8));
            }
            case 9 -> b = Arrays.copyOf(b, r.nextInt(keep + 1)); // even the sequence cut off
            case 10 -> b[1] = 1; // an echo request on mclb's upstream socket, answered there
            case 11 -> {
                if (keep == sequenceEnd(b)) {
                    b[keep - 1] ^= (byte) (1 + r.nextInt(255)); // no transaction has it (or another one does)
                }
            }
            case 12, 13, 14 -> stealTeid(b, h.ggsns.get((ggsn + 1 + r.nextInt(2)) % h.ggsns.size()).createdTeid(r));
            default -> {
                return List.of(answer, r.nextBoolean() ? answer : mutateAnswer(answer, ggsn, r).get(0));
            }
        }
        return List.of(b);
    }

    private static void setCause(byte[] b, Random r) {
        int[] v1 = {128, 129, 192, 193, 199, 204, 210, 211, 212, 0, 255};
        int[] v2 = {16, 17, 64, 72, 73, 84, 91, 0, 255};
        boolean isV2 = (b[0] & 0xE0) == 0x40;
        setCause(b, r.nextInt(4) == 0 ? r.nextInt(256) : isV2 ? v2[r.nextInt(v2.length)] : v1[r.nextInt(v1.length)]);
    }

    /** Rewrites the Cause IE where the fake GGSN puts it first. */
    private static void setCause(byte[] b, int cause) {
        int v = (b[0] & 0xFF) >>> 5;
        if (v == 0 && b.length > 21 && b[20] == 1) {
            b[21] = (byte) cause;
        } else if (v == 1 && b.length > 13 && b[12] == 1) {
            b[13] = (byte) cause;
        } else if (v == 2 && b.length > 16 && b[12] == 2) {
            b[16] = (byte) cause;
        }
    }

    /**
     * An accepted create answer names a control TEID a session on another GGSN already has: the TEID index's last-create-wins collision path.
     */
    private static void stealTeid(byte[] b, int teid) {
        int at = -1;
        if ((b[0] & 0xE0) == 0x20 && b.length >= 19 && b[1] == 17 && b[12] == 1 && b[14] == 17) {
            at = 15;
        } else if ((b[0] & 0xE0) == 0x40 && b.length >= 27 && b[1] == 33 && b[12] == 2 && b[18] == 87) {
            at = 23;
        }
        if (at > 0 && teid != 0) {
            b[at] = (byte) (teid >>> 24);
            b[at + 1] = (byte) (teid >>> 16);
            b[at + 2] = (byte) (teid >>> 8);
            b[at + 3] = (byte) teid;
        }
    }

    private List<byte[]> record(List<byte[]> out) {
        for (byte[] b : out) {
            remember(lastAnswers, "<- " + HEX.formatHex(b));
        }
        return out;
    }

    private void remember(Deque<String> ring, String s) {
        synchronized (ring) {
            if (ring.size() == 40) {
                ring.removeFirst();
            }
            ring.addLast(s);
        }
    }

    private String lastDatagrams() {
        StringBuilder sb = new StringBuilder();
        synchronized (lastRequests) {
            lastRequests.forEach(s -> sb.append(s).append('\n'));
        }
        synchronized (lastAnswers) {
            lastAnswers.forEach(s -> sb.append(s).append('\n'));
        }
        return sb.toString();
    }
}
