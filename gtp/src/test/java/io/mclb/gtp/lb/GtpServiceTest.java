package io.mclb.gtp.lb;

import io.mclb.binding.BindingTable;
import io.mclb.config.ConfigException;
import io.mclb.metrics.MetricNames;
import io.mclb.farm.RealServer;
import io.mclb.gtp.GtpTestMessages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The GTP service end to end over loopback: fake GGSNs on 127.0.0.2-4, SGSNs on 127.0.0.1. */
class GtpServiceTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    @TempDir
    Path dir;
    private GtpHarness h;
    private InetSocketAddress vip1;
    private InetSocketAddress vip0;

    @AfterEach
    void close() {
        if (h != null) {
            h.close();
        }
    }

    /** The issue's configuration with ports adapted; {@code predictor}, {@code extraVserver} lines vary per test. */
    private String issueConfig(String predictor, String extraVserver) throws Exception {
        h = new GtpHarness();
        List<FakeGgsn> farm = h.threeGgsns();
        int p1 = GtpHarness.freePort("127.0.0.1");
        int p0 = GtpHarness.freePort("127.0.0.1");
        vip1 = new InetSocketAddress("127.0.0.1", p1);
        vip0 = new InetSocketAddress("127.0.0.1", p0);
        return "mclb admin 127.0.0.1 " + GtpHarness.freePort("127.0.0.1") + "\n"
                + "mclb data-dir " + dir + "\n"
                + "mclb sticky entries 10000\n"
                + "mclb event-loops 1\n"
                + "ip slb serverfarm GGSN-FARM\n"
                + " predictor " + predictor + "\n"
                + " failaction gtp purge\n"
                + " real 127.0.0.2 " + farm.get(0).port() + "\n"
                + "  weight 8\n"
                + "  faildetect numconns 4\n"
                + "  retry 30\n"
                + "  inservice\n"
                + " real 127.0.0.3 " + farm.get(1).port() + "\n"
                + "  inservice\n"
                + " real 127.0.0.4 " + farm.get(2).port() + "\n"
                + "  inservice\n"
                + "ip slb vserver GGSN-GN\n"
                + " virtual 127.0.0.1 udp " + p1 + " service gtp-inspect\n"
                + " serverfarm GGSN-FARM\n"
                + " sticky gtp imsi group 1\n"
                + " idle gtp request 90\n"
                + " idle gtp imsi 3600\n"
                + extraVserver
                + " inservice\n"
                + "ip slb vserver GGSN-GN-V0\n"
                + " virtual 127.0.0.1 udp " + p0 + " service gtp-inspect\n"
                + " serverfarm GGSN-FARM\n"
                + " sticky gtp imsi group 1\n"
                + " inservice\n";
    }

    private void startIssueConfig(String predictor, String extra) throws Exception {
        String cfg = issueConfig(predictor, extra);
        h.start(h.parse(dir, cfg));
    }

    @Test
    void createsOfOneImsiOnV0V1V2ReachTheSameGgsn() throws Exception {
        startIssueConfig("leastconns", "");
        String atStart = h.runtime.registry().scrape();
        for (String series : List.of("cause=\"128\",version=\"v0\"", "cause=\"128\",version=\"v1\"",
                "cause=\"16\",version=\"v2\"")) {
            assertThat(io.mclb.testing.Metrics.sample(atStart, "mclb_gtp_causes_total{" + series + ",vserver=\"GGSN-GN\"}"))
                    .as("accepted cause %s exported from the start", series).isZero();
        }
        assertThat(io.mclb.testing.Metrics.sample(atStart, "mclb_gtp_teid_collisions_total")).isZero();
        DatagramSocket sgsn = h.client();
        GtpHarness.send(sgsn, GtpHarness.v1Create("262010000000007", 0x0101), vip1);
        byte[] a1 = GtpHarness.receive(sgsn);
        assertThat(GtpHarness.v1Cause(a1)).isEqualTo(128);
        assertThat(GtpHarness.v1Seq(a1)).isEqualTo(0x0101);
        int first = h.gotCreate(new int[3]);
        assertThat(first).isGreaterThanOrEqualTo(0);

        GtpHarness.send(sgsn, GtpHarness.v2Create("262010000000007", 0x0202), vip1);
        byte[] a2 = GtpHarness.receive(sgsn);
        assertThat(a2[1] & 0xFF).isEqualTo(33);
        GtpHarness.send(sgsn, GtpHarness.v0Create("262010000000007", 0x0303), vip0);
        byte[] a0 = GtpHarness.receive(sgsn);
        assertThat(a0[1] & 0xFF).isEqualTo(17);
        assertThat(((a0[4] & 0xFF) << 8) | (a0[5] & 0xFF)).isEqualTo(0x0303);
        assertThat(h.ggsns.get(first).creates.get()).isEqualTo(3);
        // v1 NSAPI 5 and v2 EBI 5 name the same (IMSI, 5) session: the v2 create replaced it; v0 is NSAPI 0
        assertThat(h.factory.module().sessions().size()).isEqualTo(2);
        assertThat(h.counter(GtpMetrics.CAUSES, "vserver", "GGSN-GN", "version", "v1", "cause", "128")).isEqualTo(1);
        assertThat(h.counter(GtpMetrics.CAUSES, "vserver", "GGSN-GN", "version", "v2", "cause", "16")).isEqualTo(1);
    }

    @Test
    void aNewCreateReusingASequenceNumberIsNotTakenForARetransmission() throws Exception {
        startIssueConfig("roundrobin", "");
        DatagramSocket sgsn = h.client();
        GtpHarness.send(sgsn, GtpHarness.v1Create("262010000000001", 0x0505), vip1);
        assertThat(GtpHarness.v1Cause(GtpHarness.receive(sgsn))).isEqualTo(128);

        // a busy SGSN wraps its 16-bit sequence numbers within seconds: same number, another subscriber
        int[] before = h.ggsns.stream().mapToInt(g -> g.creates.get()).toArray();
        byte[] other = GtpHarness.v1Create("262010000000002", 0x0505);
        GtpHarness.send(sgsn, other, vip1);
        assertThat(GtpHarness.v1Cause(GtpHarness.receive(sgsn))).isEqualTo(128);
        int second = h.gotCreate(before);
        assertThat(second).isGreaterThanOrEqualTo(0);
        assertThat(h.counter(MetricNames.RETRANSMISSIONS, "vserver", "GGSN-GN")).as("a new transaction").isZero();
        assertThat(h.factory.module().sessions().size()).isEqualTo(2);

        // the same bytes again are a retransmission: same GGSN
        before = h.ggsns.stream().mapToInt(g -> g.creates.get()).toArray();
        GtpHarness.send(sgsn, other, vip1);
        assertThat(GtpHarness.v1Cause(GtpHarness.receive(sgsn))).isEqualTo(128);
        assertThat(h.gotCreate(before)).isEqualTo(second);
        assertThat(h.counter(MetricNames.RETRANSMISSIONS, "vserver", "GGSN-GN")).isEqualTo(1.0);
    }

    @Test
    void noResourcesIsChargedAndTheSgsnSeesOnlyAnotherGgsnsAccept() throws Exception {
        startIssueConfig("roundrobin", "");
        h.ggsns.forEach(g -> g.v1Cause = 199);
        h.ggsns.get(1).v1Cause = 128;
        DatagramSocket sgsn = h.client();
        for (int i = 0; i < 3; i++) {
            GtpHarness.send(sgsn, GtpHarness.v1Create("26201000000010" + i, 0x0A00 + i), vip1);
            byte[] a = GtpHarness.receive(sgsn);
            assertThat(GtpHarness.v1Cause(a)).as("the 199 never reaches the SGSN").isEqualTo(128);
            assertThat(GtpHarness.v1Seq(a)).isEqualTo(0x0A00 + i);
        }
        RealServer good = h.real("GGSN-FARM", h.ggsns.get(1));
        assertThat(good.activeConnections()).isEqualTo(3);
        long charged = h.real("GGSN-FARM", h.ggsns.get(0)).failures() + h.real("GGSN-FARM", h.ggsns.get(2)).failures();
        assertThat(charged).isGreaterThanOrEqualTo(1);
        assertThat(h.counter(GtpMetrics.CAUSES, "vserver", "GGSN-GN", "version", "v1", "cause", "199"))
                .isEqualTo(charged);
    }

    @Test
    void leastconnsBalancesByAcceptedSessionsAndDeletesDecrement() throws Exception {
        startIssueConfig("leastconns", "");
        DatagramSocket sgsn = h.client();
        for (int i = 0; i < 9; i++) {
            GtpHarness.send(sgsn, GtpHarness.v1Create("2620100000002" + i + "0", 0x100 + i), vip1);
            assertThat(GtpHarness.v1Cause(GtpHarness.receive(sgsn))).isEqualTo(128);
        }
        long a = h.real("GGSN-FARM", h.ggsns.get(0)).activeConnections();
        long b = h.real("GGSN-FARM", h.ggsns.get(1)).activeConnections();
        long c = h.real("GGSN-FARM", h.ggsns.get(2)).activeConnections();
        assertThat(a + b + c).isEqualTo(9);
        assertThat(h.factory.module().sessions().size()).isEqualTo(9);
        assertThat(java.util.List.of(a, b, c)).as("every real got sessions: balanced by held session counts")
                .allMatch(n -> n >= 1);

        // delete one session through mclb by the GGSN's TEID: follow-up routing + decrement
        GtpSession s = h.factory.module().sessions().get(
                io.mclb.gtp.Tbcd.encodeRaw("262010000000200"), 5);
        assertThat(s).isNotNull();
        RealServer owner = s.real();
        long before = owner.activeConnections();
        FakeGgsn ownerGgsn = h.ggsns.stream().filter(g -> g.port() == owner.port()).findFirst().orElseThrow();
        GtpHarness.send(sgsn, GtpHarness.v1Delete(s.teid(), 0x7777, 5), vip1);
        byte[] d = GtpHarness.receive(sgsn);
        assertThat(d[1] & 0xFF).isEqualTo(21);
        assertThat(GtpHarness.v1Seq(d)).isEqualTo(0x7777);
        assertThat(ownerGgsn.deletes.get()).isEqualTo(1);
        assertThat(owner.activeConnections()).isEqualTo(before - 1);
        assertThat(h.factory.module().sessions().size()).isEqualTo(8);

        // the same Delete again (its answer lost): the session is gone, but the GGSN answers its duplicate
        GtpHarness.send(sgsn, GtpHarness.v1Delete(s.teid(), 0x7777, 5), vip1);
        assertThat(GtpHarness.v1Seq(GtpHarness.receive(sgsn))).isEqualTo(0x7777);
        assertThat(ownerGgsn.deletes.get()).as("the retransmission reached the same GGSN").isEqualTo(2);
        assertThat(h.drops("GGSN-GN", "gtp_unknown_teid")).isZero();

        // unknown TEID: dropped and counted
        GtpHarness.send(sgsn, GtpHarness.v1Delete(0x5555, 0x7778, 5), vip1);
        await().atMost(WAIT).until(() -> h.drops("GGSN-GN", "gtp_unknown_teid") == 1);
    }

    @Test
    void aV1AndAV2SessionWithTheSameTeidStayApart() throws Exception {
        // GGSNs and PGWs count their TEIDs from 1 each: a v1 PDP context and a v2 session share one
        startIssueConfig("leastconns", "");
        DatagramSocket sgsn = h.client();
        GtpHarness.send(sgsn, GtpHarness.v1Create("262010000000400", 1), vip1);
        assertThat(GtpHarness.v1Cause(GtpHarness.receive(sgsn))).isEqualTo(128);
        BindingTable<GtpSession> sessions = h.factory.module().sessions();
        GtpSession v1 = sessions.get(io.mclb.gtp.Tbcd.encodeRaw("262010000000400"), 5);
        FakeGgsn v1Ggsn = h.ggsns.stream().filter(g -> g.port() == v1.real().port()).findFirst().orElseThrow();
        FakeGgsn v2Ggsn = h.ggsns.stream().filter(g -> g != v1Ggsn).findFirst().orElseThrow();
        // the v2 session with the same TEID on another GGSN, as the HA stream delivers one
        GtpSession v2 = sessions.openReplicated(new GtpSession(io.mclb.gtp.Tbcd.encodeRaw("262010000000401"), 5,
                h.real("GGSN-FARM", v2Ggsn), GtpSession.alias(2, v1.teid()), v1.teid(), false, null,
                h.clock.nanoTime(), 3_600_000_000_000L), h.clock.nanoTime(), 3_600_000_000_000L);
        assertThat(v2.version()).isEqualTo(2);
        assertThat(sessions.aliasCollisions()).isZero();

        GtpHarness.send(sgsn, GtpHarness.v1Delete(v1.teid(), 2, 5), vip1);
        assertThat(GtpHarness.receive(sgsn)[1] & 0xFF).isEqualTo(21);
        assertThat(v1Ggsn.deletes.get()).as("the v1 Delete reached the PDP context's GGSN").isEqualTo(1);
        assertThat(v2Ggsn.deletes.get()).isZero();
        assertThat(sessions.get(v2.imsiRaw(), 5)).as("the v2 session outlives the v1 Delete").isSameAs(v2);

        GtpHarness.send(sgsn, GtpHarness.v2Delete(v1.teid(), 3), vip1);
        assertThat(GtpHarness.receive(sgsn)[1] & 0xFF).isEqualTo(37);
        assertThat(v2Ggsn.deletes.get()).as("the v2 Delete reached the session's PGW").isEqualTo(1);
        assertThat(sessions.size()).isZero();
        assertThat(h.drops("GGSN-GN", "gtp_unknown_teid")).isZero();
    }

    @Test
    void v2DeleteFollowsTheLearnedFteidAndIdleSessionsExpire() throws Exception {
        startIssueConfig("leastconns", " idle gtp imsi 60\n".replace(" idle gtp imsi 60\n", ""));
        DatagramSocket sgsn = h.client();
        GtpHarness.send(sgsn, GtpHarness.v2Create("262010000000300", 1), vip1);
        GtpHarness.receive(sgsn);
        GtpHarness.send(sgsn, GtpHarness.v2Create("262010000000301", 2), vip1);
        GtpHarness.receive(sgsn);
        GtpSession s = h.factory.module().sessions().get(io.mclb.gtp.Tbcd.encodeRaw("262010000000300"), 5);
        assertThat(s.teid()).isNotZero();
        assertThat(s.ggsnAddress()).hasSize(4);
        GtpHarness.send(sgsn, GtpHarness.v2Delete(s.teid(), 3), vip1);
        assertThat(GtpHarness.receive(sgsn)[1] & 0xFF).isEqualTo(37);
        assertThat(h.factory.module().sessions().size()).isEqualTo(1);
        long total = totalConns();
        h.clock.advanceSeconds(3601);
        await().atMost(WAIT).until(() -> h.factory.module().sessions().size() == 0);
        assertThat(totalConns()).isEqualTo(total - 1);
    }

    private long totalConns() {
        long n = 0;
        for (RealServer r : h.runtime.farms().get("GGSN-FARM").reals()) {
            n += r.activeConnections();
        }
        return n;
    }

    @Test
    void echoToTheVipIsAnsweredWithARecoveryThatSurvivesARestart() throws Exception {
        String cfg = issueConfig("leastconns", "");
        h.start(h.parse(dir, cfg));
        DatagramSocket sgsn = h.client();
        GtpHarness.send(sgsn, GtpTestMessages.v1(1, 0, 0x4242, new byte[0]), vip1);
        byte[] e = GtpHarness.receive(sgsn);
        assertThat(e[1] & 0xFF).isEqualTo(2);
        assertThat(GtpHarness.v1Seq(e)).isEqualTo(0x4242);
        int recovery = e[13] & 0xFF;
        assertThat(e[12]).isEqualTo((byte) 14);
        h.ggsns.forEach(g -> g.echoes.set(0));
        assertThat(h.ggsns.stream().mapToInt(g -> g.echoes.get()).sum()).isZero();

        // a GGSN's echo to mclb's upstream socket is answered too, with the same Recovery
        GtpHarness.send(sgsn, GtpHarness.v1Create("262010000000400", 9), vip1);
        GtpHarness.receive(sgsn);
        FakeGgsn g = h.ggsns.get(h.gotCreate(new int[3]));
        g.send(GtpTestMessages.v1(1, 0, 0x99, new byte[0]), g.lastPeer);
        await().atMost(WAIT).until(() -> g.echoAnswerRecovery == recovery);
        h.runtime.close();

        h.runtime = null;
        GtpHarness again = new GtpHarness();
        again.start(again.parse(dir, cfg));
        try {
            DatagramSocket c2 = again.client();
            GtpHarness.send(c2, GtpTestMessages.v2(1, 0, 7, new byte[0]).clone(), vip1);
            byte[] e2 = GtpHarness.receive(c2);
            assertThat(e2[1] & 0xFF).isEqualTo(2);
            assertThat(e2[12] & 0xFF).as("v2 Recovery value after restart").isEqualTo(recovery);
        } finally {
            again.close();
        }
    }

    @Test
    void badInputIsDroppedAndCountedByReason() throws Exception {
        startIssueConfig("leastconns", "");
        DatagramSocket sgsn = h.client();
        byte[] create = GtpHarness.v1Create("262010000000500", 1);
        GtpHarness.send(sgsn, java.util.Arrays.copyOf(create, 6), vip1);
        byte[] longer = create.clone();
        longer[3] = (byte) (longer[3] + 40);
        GtpHarness.send(sgsn, longer, vip1);
        byte[] overrun = GtpTestMessages.v1(16, 0, 2, new GtpTestMessages.Bytes().u8(131).u16(50).raw(new byte[3]).bytes());
        GtpHarness.send(sgsn, overrun, vip1);
        GtpHarness.send(sgsn, new byte[] {(byte) 0xA0, 1, 0, 0, 0, 0, 0, 0}, vip1);
        GtpHarness.send(sgsn, GtpTestMessages.v1(16, 0, 3, GtpTestMessages.v1CreateRequestIes(null)), vip1);
        byte[] notBcd = GtpTestMessages.v1(16, 0, 4, GtpTestMessages.v1CreateRequestIes(
                GtpTestMessages.hex("62 02 1A 00 00 00 00 F0")));
        GtpHarness.send(sgsn, notBcd, vip1);
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(h.drops("GGSN-GN", "gtp_truncated_header")).isEqualTo(1);
            assertThat(h.drops("GGSN-GN", "gtp_length_exceeds_datagram")).isEqualTo(1);
            assertThat(h.drops("GGSN-GN", "gtp_ie_overruns_message")).isEqualTo(1);
            assertThat(h.drops("GGSN-GN", "gtp_unsupported_version")).isEqualTo(1);
            assertThat(h.drops("GGSN-GN", "gtp_imsi_missing")).isEqualTo(1);
            assertThat(h.drops("GGSN-GN", "gtp_imsi_not_bcd")).isEqualTo(1);
        });
        assertThat(h.drops("GGSN-GN", "internal_error")).isZero();
        assertThat(h.creates()).containsOnly(0);

        // a response with a sequence number no transaction has: from a GGSN to mclb's upstream socket
        GtpHarness.send(sgsn, GtpHarness.v1Create("262010000000501", 5), vip1);
        GtpHarness.receive(sgsn);
        FakeGgsn g = h.ggsns.get(h.gotCreate(new int[3]));
        g.send(GtpTestMessages.v1CreateResponse(128), g.lastPeer);
        await().atMost(WAIT).until(() -> h.drops("GGSN-GN", "unknown_response") == 1);
    }

    @Test
    void carrierCodeAllowList() throws Exception {
        startIssueConfig("leastconns", " client gtp carrier-code 26201\n");
        DatagramSocket sgsn = h.client();
        GtpHarness.send(sgsn, GtpHarness.v1Create("310150000000001", 1), vip1);
        GtpHarness.send(sgsn, GtpHarness.v1Create("262010000000600", 2), vip1);
        assertThat(GtpHarness.v1Seq(GtpHarness.receive(sgsn))).isEqualTo(2);
        await().atMost(WAIT).until(() -> h.drops("GGSN-GN", "gtp_carrier_not_allowed") == 1);
    }

    @Test
    void plainGtpWithLeastconnsIsRejected() throws Exception {
        String cfg = issueConfig("leastconns", "").replaceFirst("service gtp-inspect", "service gtp");
        assertThatThrownBy(() -> h.parse(dir, cfg)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("test.cfg:")
                .hasMessageContaining("'service gtp' (no cause inspection) may only use weighted round robin")
                .hasMessageContaining("GGSN-FARM");
        String carrier = issueConfig("roundrobin", " client gtp carrier-code 26201\n")
                .replaceFirst("service gtp-inspect", "service gtp");
        assertThatThrownBy(() -> h.parse(dir, carrier)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("carrier-code filtering needs 'service gtp-inspect'");
    }

    @Test
    void deleteNotificationFromARealEndsTheSession() throws Exception {
        startIssueConfig("leastconns", " gtp notification cac 1\n");
        DatagramSocket sgsn = h.client();
        GtpHarness.send(sgsn, GtpHarness.v1Create("262010000000700", 1), vip1);
        GtpHarness.receive(sgsn);
        FakeGgsn g = h.ggsns.get(h.gotCreate(new int[3]));
        RealServer r = h.real("GGSN-FARM", g);
        assertThat(r.activeConnections()).isEqualTo(1);
        DatagramSocket fromGgsn = h.client(g.address());
        byte[] ies = new GtpTestMessages.Bytes().u8(2).raw(GtpTestMessages.tbcd8("262010000000700")).u8(20).u8(5).bytes();
        GtpHarness.send(fromGgsn, GtpTestMessages.v1(0xE0, 0, 0x31, ies), vip1);
        byte[] ack = GtpHarness.receive(fromGgsn);
        assertThat(ack[1] & 0xFF).isEqualTo(0xE1);
        assertThat(GtpHarness.v1Cause(ack)).isEqualTo(128);
        assertThat(r.activeConnections()).isZero();
        // from an address that is no real: refused
        GtpHarness.send(sgsn, GtpTestMessages.v1(0xE0, 0, 0x32, ies), vip1);
        await().atMost(WAIT).until(() -> h.drops("GGSN-GN", "gtp_notification_refused") == 1);
    }
}
