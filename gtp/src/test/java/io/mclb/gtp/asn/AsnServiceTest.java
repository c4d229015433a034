package io.mclb.gtp.asn;

import io.mclb.gtp.lb.GtpModule;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code service asn} end to end on loopback: the first message of an MSID picks a gateway and
 * writes the {@code asn-msid} sticky entry, every later message of that MSID goes there with its
 * transaction ID rewritten per path and restored, the Ack continues its exchange, NetExit ends
 * the binding, entries survive a restart, {@code failaction asn purge} clears a failed gateway's,
 * least connections balances by active MSIDs, and bad headers are dropped by reason.
 */
class AsnServiceTest {
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final long MSID = 0x0002_AABB_CCDDL;
    @TempDir
    Path dir;
    private AsnHarness h;

    @AfterEach
    void close() throws Exception {
        if (h != null) {
            h.close();
        }
    }

    private FakeAsnGateway gatewayWith(int count) {
        return h.gateways.stream().filter(g -> g.count() == count).findFirst().orElseThrow();
    }

    @Test
    void anMsidStaysOnTheGatewayChosenByItsPreAttachmentUntilNetExit() throws Exception {
        h = new AsnHarness(dir, 3, " sticky asn msid group 4\n idle asn request 5\n");
        DatagramSocket bs = h.client("127.0.0.1");
        int tid = 0x8123; // the top ("D") bit set: it must travel unchanged
        h.send(bs, R6.preAttachmentReq(MSID, tid));
        byte[] rsp = h.receive(bs);
        assertThat(R6.op(rsp)).isEqualTo(2);
        assertThat(R6.tid(rsp)).as("the base station's own transaction ID restored").isEqualTo(tid);
        FakeAsnGateway gw = gatewayWith(1);
        byte[] atGateway = gw.seen().get(0);
        assertThat(R6.tid(atGateway) & 0x8000).as("top bit kept").isEqualTo(0x8000);
        assertThat(Arrays.copyOfRange(atGateway, 18, 30)).isEqualTo(Arrays.copyOfRange(R6.preAttachmentReq(MSID, tid),
                18, 30));
        assertThat(h.runtime.stickyTable().size(GtpModule.ASN_MSID)).isEqualTo(1);
        assertThat(h.module.bindings().size()).isEqualTo(1);

        // the Ack continues the exchange: same gateway, the same upstream transaction ID, no answer awaited
        h.send(bs, R6.preAttachmentAck(MSID, tid));
        await().atMost(WAIT).until(() -> gw.count() == 2);
        assertThat(R6.tid(gw.seen().get(1))).isEqualTo(R6.tid(atGateway));
        assertThat(h.counter("mclb.one.way")).isEqualTo(1);

        // attachment (9/4), path registration (3/10), key change (9/7) from another base station: same gateway
        DatagramSocket otherBs = h.client("127.0.0.9");
        int[][] later = {{9, 4}, {3, 10}, {9, 7}};
        for (int[] m : later) {
            h.send(otherBs, R6.message(m[0], 1, m[1], MSID, 7));
            assertThat(R6.tid(h.receive(otherBs))).isEqualTo(7);
        }
        assertThat(gw.count()).isEqualTo(5);

        // NetExit_MS_State_Change_Req (9/16): after its answer the binding ends
        h.send(bs, R6.message(9, 1, 16, MSID, 9));
        h.receive(bs);
        assertThat(gw.count()).isEqualTo(6);
        assertThat(h.module.bindings().size()).isZero();
        assertThat(h.real(h.gateways.get(h.gateways.indexOf(gw))).activeConnections()).isZero();
        assertThat(h.counter("mclb.request.timeouts")).isZero();
    }

    @Test
    void theOlderNwgNumberingIsRecognisedAndPathDeregEndsTheBinding() throws Exception {
        h = new AsnHarness(dir, 2, "");
        DatagramSocket bs = h.client("127.0.0.1");
        h.send(bs, R6.message(9, 1, 6, MSID, 1)); // v1.0.0 MS_PreAttachment_Req
        h.receive(bs);
        FakeAsnGateway gw = gatewayWith(1);
        assertThat(h.module.bindings().size()).isEqualTo(1);
        h.send(bs, R6.message(9, 3, 8, MSID, 1)); // v1.0.0 MS_PreAttachment_Ack
        for (int i = 0; i < 4; i++) {
            h.send(bs, R6.message(3, 1, 11, MSID, 10 + i)); // v1.0.0 Path_Reg_Req: the binding routes it
            h.receive(bs);
        }
        assertThat(gw.count()).isEqualTo(6);
        h.send(bs, R6.message(3, 1, 2, MSID, 20)); // v1.0.0 Path_Dereg_Req
        h.receive(bs);
        assertThat(h.module.bindings().size()).isZero();
    }

    @Test
    void leastConnectionsBalancesNewMobileStationsByActiveMsids() throws Exception {
        h = new AsnHarness(dir, 2, " sticky asn msid\n", "predictor leastconns");
        DatagramSocket bs = h.client("127.0.0.1");
        for (int i = 0; i < 6; i++) {
            h.send(bs, R6.preAttachmentReq(MSID + i, i));
            h.receive(bs);
        }
        assertThat(h.real(h.gateways.get(0)).activeConnections()).isEqualTo(3);
        assertThat(h.real(h.gateways.get(1)).activeConnections()).isEqualTo(3);
        assertThat(h.counter("mclb.assignments")).isEqualTo(6);
    }

    @Test
    void msidEntriesSurviveARestartAndFailactionPurgeClearsAFailedGatewaysEntries() throws Exception {
        h = new AsnHarness(dir, 2, " sticky asn msid group 4\n", "failaction asn purge");
        DatagramSocket bs = h.client("127.0.0.1");
        for (int i = 0; i < 4; i++) {
            h.send(bs, R6.preAttachmentReq(MSID + i, i));
            h.receive(bs);
        }
        List<Integer> before = h.gateways.stream().map(FakeAsnGateway::count).toList();
        h.runtime.close();
        h.start();
        for (int i = 0; i < 4; i++) {
            h.send(bs, R6.message(9, 1, 4, MSID + i, 100 + i)); // attachments after the restart
            h.receive(bs);
        }
        for (int g = 0; g < 2; g++) {
            assertThat(h.gateways.get(g).count()).as("gateway %d got its own MSIDs again", g)
                    .isEqualTo(2 * before.get(g));
        }
        assertThat(h.runtime.stickyTable().size(GtpModule.ASN_MSID)).isEqualTo(4);

        FakeAsnGateway failed = h.gateways.get(0);
        h.real(failed).fail(h.clock.nanoTime(), "test");
        await().atMost(WAIT).until(() -> h.runtime.stickyTable().size(GtpModule.ASN_MSID) == 4 - before.get(0));
        // its MSIDs are balanced afresh (to the other gateway, the failed one takes nothing now)
        int other = h.gateways.get(1).count();
        h.send(bs, R6.preAttachmentReq(MSID, 200));
        h.receive(bs);
        assertThat(h.gateways.get(1).count()).isEqualTo(other + 1);
    }

    @Test
    void malformedHeadersAreDroppedByReasonAndTheServiceStillAnswers() throws Exception {
        h = new AsnHarness(dir, 1, "");
        DatagramSocket bs = h.client("127.0.0.1");
        byte[] good = R6.preAttachmentReq(MSID, 3);
        h.send(bs, Arrays.copyOf(good, 19));
        byte[] v2 = good.clone();
        v2[0] = 2;
        h.send(bs, v2);
        byte[] shortLength = good.clone();
        shortLength[5] = 12;
        h.send(bs, shortLength);
        byte[] longLength = good.clone();
        longLength[5] = 40;
        h.send(bs, longLength);
        byte[] tlv = good.clone();
        tlv[23] = 9; // the BS ID TLV claims 9 octets, 6 remain
        h.send(bs, tlv);
        byte[] op0 = good.clone();
        op0[3] = 1;
        h.send(bs, op0);
        byte[] response = good.clone();
        response[3] = (byte) ((2 << 5) | 2);
        h.send(bs, response);
        await().atMost(WAIT).until(() -> h.counter("mclb.requests") == 7);
        for (String r : List.of("asn_truncated_header", "asn_unsupported_version", "asn_length_too_short",
                "asn_length_exceeds_datagram", "asn_tlv_overruns_message", "asn_invalid_op_id", "asn_response_to_vip")) {
            assertThat(h.drops(r)).as(r).isEqualTo(1);
        }
        assertThat(h.gateways.get(0).count()).isZero();
        h.send(bs, good);
        assertThat(R6.tid(h.receive(bs))).isEqualTo(3);
    }

    /** Issue 14 item 5: octets after the header's length would reach the gateway unparsed; dropped. */
    @Test
    void octetsAfterTheLengthAreNeverForwarded() throws Exception {
        h = new AsnHarness(dir, 1, "");
        DatagramSocket bs = h.client("127.0.0.1");
        byte[] good = R6.preAttachmentReq(MSID, 4);
        byte[] longer = Arrays.copyOf(good, good.length + 3);
        h.send(bs, longer);
        await().atMost(WAIT).until(() -> h.counter("mclb.requests") == 1);
        assertThat(h.drops("asn_length_mismatch")).isEqualTo(1);
        assertThat(h.gateways.get(0).count()).isZero();
        h.send(bs, good);
        assertThat(R6.tid(h.receive(bs))).isEqualTo(4);
    }
}
