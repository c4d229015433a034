package io.mclb.perf.gtp.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.mclb.gtp.Apn;
import io.mclb.gtp.GtpEchoEncoder;
import io.mclb.gtp.Tbcd;
import io.mclb.gtp.v0.GtpV0Message;
import io.mclb.gtp.v0.TidLayout;
import io.mclb.gtp.v1.GtpV1Message;
import io.mclb.gtp.v2.GtpV2Fteid;
import io.mclb.gtp.v2.GtpV2Ie;
import io.mclb.gtp.v2.GtpV2Message;
import io.mclb.perf.gtp.load.GtpRequestEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class GgsnSimulatorTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final byte[] SGSN = LOOPBACK.getAddress();
    private static final byte[] APN = Apn.encode("internet");
    private static final long IMSI = GtpRequestEncoder.imsiRaw(1_010_000_000_042L, 15);

    private GgsnSimulator sim;
    private DatagramSocket client;

    @AfterEach
    void tearDown() {
        if (client != null) {
            client.close();
        }
        if (sim != null) {
            sim.close();
        }
    }

    private void start(GgsnSimulator.Builder b) throws Exception {
        sim = b.listen(new InetSocketAddress(LOOPBACK, 0)).start();
        client = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0));
        client.setSoTimeout(5_000);
    }

    /** Sends what {@code writer} encodes and returns the simulator's answer. */
    private ByteBuf exchange(Consumer<ByteBuf> writer) throws Exception {
        ByteBuf out = Unpooled.buffer(512);
        writer.accept(out);
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        client.send(new DatagramPacket(bytes, bytes.length, sim.boundAddresses().get(0)));
        DatagramPacket in = new DatagramPacket(new byte[2048], 2048);
        client.receive(in);
        assertThat(in.getSocketAddress()).isEqualTo(sim.boundAddresses().get(0));
        return Unpooled.wrappedBuffer(in.getData(), 0, in.getLength());
    }

    private GtpV1Message v1(ByteBuf b) {
        GtpV1Message m = new GtpV1Message();
        assertThat(m.wrap(b)).as("v1 decodes: %s", m.reason()).isTrue();
        return m;
    }

    private GtpV2Message v2(ByteBuf b) {
        GtpV2Message m = new GtpV2Message();
        assertThat(m.wrap(b)).as("v2 decodes: %s", m.reason()).isTrue();
        return m;
    }

    private GtpV0Message v0(ByteBuf b) {
        GtpV0Message m = new GtpV0Message();
        assertThat(m.wrap(b)).as("v0 decodes: %s", m.reason()).isTrue();
        return m;
    }

    @Test
    void v1CreateIsAcceptedAndDeleteRemovesTheSession() throws Exception {
        start(GgsnSimulator.builder().recovery(7));
        GtpV1Message r = v1(exchange(b -> GtpRequestEncoder.writeV1Create(b, 4711, IMSI, 5, 0x1234, 0x5678, SGSN, APN)));

        assertThat(r.messageType()).isEqualTo(17);
        assertThat(r.sequence()).isEqualTo(4711);
        assertThat(r.teid()).isEqualTo(0x1234);
        assertThat(r.ies().cause()).isEqualTo(128);
        assertThat(r.ies().recovery()).isEqualTo(7);
        int teidC = r.ies().teidControl(false);
        assertThat(teidC).isNotZero();
        assertThat(r.ies().hasTeidDataI()).isTrue();
        assertThat(r.ies().gsnAddressLength(0)).isEqualTo(4);
        assertThat(r.ies().gsnAddressIpv4(0)).isEqualTo(0x7F000001);
        assertThat(r.ies().gsnAddressLength(1)).isEqualTo(4);
        assertThat(r.ies().endUserAddressLength()).isEqualTo(6);
        assertThat(sim.activeSessions()).isEqualTo(1);

        GtpV1Message d = v1(exchange(b -> GtpRequestEncoder.writeV1Delete(b, 4712, teidC, 5)));
        assertThat(d.messageType()).isEqualTo(21);
        assertThat(d.sequence()).isEqualTo(4712);
        assertThat(d.teid()).isEqualTo(0x1234);
        assertThat(d.ies().cause()).isEqualTo(128);
        assertThat(sim.activeSessions()).isZero();

        GtpV1Message again = v1(exchange(b -> GtpRequestEncoder.writeV1Delete(b, 4713, teidC, 5)));
        assertThat(again.ies().cause()).isEqualTo(210);
        assertThat(sim.deletesNotFound()).isEqualTo(1);
        assertThat(sim.received(1, 16)).isEqualTo(1);
        assertThat(sim.received(1, 20)).isEqualTo(2);
        assertThat(sim.createResponses(1, 128)).isEqualTo(1);
    }

    /** Sends what {@code writer} encodes to the simulator's address {@code i} and returns its answer. */
    private ByteBuf exchange(int i, Consumer<ByteBuf> writer) throws Exception {
        ByteBuf out = Unpooled.buffer(512);
        writer.accept(out);
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        client.send(new DatagramPacket(bytes, bytes.length, sim.boundAddresses().get(i)));
        DatagramPacket in = new DatagramPacket(new byte[2048], 2048);
        client.receive(in);
        return Unpooled.wrappedBuffer(in.getData(), 0, in.getLength());
    }

    @Test
    void followUpsAreAnsweredOnlyByTheGgsnAddressThatCreatedTheSession() throws Exception {
        sim = GgsnSimulator.builder().listen(new InetSocketAddress(LOOPBACK, 0))
                .listen(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0)).start();
        client = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0));
        client.setSoTimeout(5_000);
        int teid1 = v1(exchange(0, b -> GtpRequestEncoder.writeV1Create(b, 1, IMSI, 5, 1, 1, SGSN, APN)))
                .ies().teidControl(false);
        GtpV1Message wrong = v1(exchange(1, b -> GtpRequestEncoder.writeV1Update(b, 2, teid1, 5)));
        assertThat(wrong.messageType()).isEqualTo(19);
        assertThat(wrong.ies().cause()).as("another GGSN does not know the TEID").isEqualTo(210);
        assertThat(v1(exchange(0, b -> GtpRequestEncoder.writeV1Update(b, 3, teid1, 5))).ies().cause()).isEqualTo(128);
        assertThat(v1(exchange(1, b -> GtpRequestEncoder.writeV1Delete(b, 4, teid1, 5))).ies().cause()).isEqualTo(210);
        assertThat(v1(exchange(0, b -> GtpRequestEncoder.writeV1Delete(b, 5, teid1, 5))).ies().cause()).isEqualTo(128);

        GtpV2Message created = v2(exchange(1, b -> GtpRequestEncoder.writeV2Create(b, 6, IMSI, 5, 0x77, SGSN, APN)));
        GtpV2Fteid f = new GtpV2Fteid();
        assertThat(created.fteid(1, f)).isTrue();
        int teid2 = f.teid();
        GtpV2Message modify = v2(exchange(1, b -> GtpRequestEncoder.writeV2Modify(b, 7, teid2, 5)));
        assertThat(modify.messageType()).isEqualTo(35);
        assertThat(modify.cause()).isEqualTo(16);
        assertThat(v2(exchange(0, b -> GtpRequestEncoder.writeV2Modify(b, 8, teid2, 5))).cause()).isEqualTo(64);
        assertThat(sim.activeSessions()).isEqualTo(1);
    }

    @Test
    void aRepeatedCreateForOneSubscriberReplacesItsSession() throws Exception {
        start(GgsnSimulator.builder());
        GtpV1Message first = v1(exchange(b -> GtpRequestEncoder.writeV1Create(b, 1, IMSI, 5, 1, 1, SGSN, APN)));
        int oldTeid = first.ies().teidControl(false);
        v1(exchange(b -> GtpRequestEncoder.writeV1Create(b, 2, IMSI, 5, 2, 2, SGSN, APN)));
        assertThat(sim.activeSessions()).isEqualTo(1);
        assertThat(v1(exchange(b -> GtpRequestEncoder.writeV1Delete(b, 3, oldTeid, 5))).ies().cause()).isEqualTo(210);
    }

    @Test
    void aRetransmittedCreateKeepsItsSessionAndTeid() throws Exception {
        // an SGSN resends a create unanswered after T3-RESPONSE; a GGSN that served it answers the same
        start(GgsnSimulator.builder());
        int teid = v1(exchange(b -> GtpRequestEncoder.writeV1Create(b, 1, IMSI, 5, 1, 1, SGSN, APN))).ies().teidControl(false);
        int again = v1(exchange(b -> GtpRequestEncoder.writeV1Create(b, 1, IMSI, 5, 1, 1, SGSN, APN))).ies().teidControl(false);
        assertThat(again).isEqualTo(teid);
        assertThat(sim.activeSessions()).isEqualTo(1);
        assertThat(v1(exchange(b -> GtpRequestEncoder.writeV1Delete(b, 2, teid, 5))).ies().cause()).isEqualTo(128);
    }

    @Test
    void echoAnswersCarryTheRecoveryForEveryVersionAndRestartChangesIt() throws Exception {
        start(GgsnSimulator.builder().recovery(255));
        GtpV1Message e1 = v1(exchange(b -> echoRequestV1(b, 99)));
        assertThat(e1.messageType()).isEqualTo(2);
        assertThat(e1.sequence()).isEqualTo(99);
        assertThat(e1.ies().recovery()).isEqualTo(255);
        GtpV2Message e2 = v2(exchange(b -> b.writeByte(0x40).writeByte(1).writeShort(9).writeMedium(0x12345).writeByte(0)
                .writeByte(3).writeShort(1).writeByte(0).writeByte(9)));
        assertThat(e2.messageType()).isEqualTo(2);
        assertThat(e2.sequence()).isEqualTo(0x12345);
        assertThat(e2.recovery()).isEqualTo(255);
        GtpV0Message e0 = v0(exchange(b -> GtpResponseEncoder.v0Header(b, 1, 77, 0, 0)));
        assertThat(e0.messageType()).isEqualTo(2);
        assertThat(e0.sequence()).isEqualTo(77);
        assertThat(e0.ies().recovery()).isEqualTo(255);

        int teid = v1(exchange(b -> GtpRequestEncoder.writeV1Create(b, 1, IMSI, 5, 1, 1, SGSN, APN))).ies().teidControl(false);
        sim.restart();
        assertThat(sim.recovery()).isZero();
        assertThat(v1(exchange(b -> echoRequestV1(b, 100))).ies().recovery()).isZero();
        // A rebooted GGSN has lost its contexts.
        assertThat(v1(exchange(b -> GtpRequestEncoder.writeV1Delete(b, 2, teid, 5))).ies().cause()).isEqualTo(210);
        assertThat(sim.activeSessions()).isZero();
        GtpV1Message c = v1(exchange(b -> GtpRequestEncoder.writeV1Create(b, 3, IMSI, 5, 1, 1, SGSN, APN)));
        assertThat(c.ies().recovery()).isZero();
    }

    @Test
    void v0CreateAndDeleteByTid() throws Exception {
        start(GgsnSimulator.builder().recovery(3));
        long tid = GtpRequestEncoder.tid(IMSI, 5, TidLayout.OSMO_GGSN);
        GtpV0Message r = v0(exchange(b -> GtpRequestEncoder.writeV0Create(b, 321, tid, 0x0A0B, 0x0C0D, SGSN, APN)));

        assertThat(r.messageType()).isEqualTo(17);
        assertThat(r.sequence()).isEqualTo(321);
        assertThat(r.flowLabel()).isEqualTo(0x0A0B);
        assertThat(r.tid()).isEqualTo(tid);
        assertThat(Tbcd.toString(r.tidImsi(TidLayout.OSMO_GGSN))).isEqualTo("001010000000042");
        assertThat(r.tidNsapi(TidLayout.OSMO_GGSN)).isEqualTo(5);
        assertThat(r.ies().cause()).isEqualTo(128);
        assertThat(r.ies().recovery()).isEqualTo(3);
        int label = r.ies().teidControl(true);
        assertThat(label).isNotZero();
        assertThat(r.ies().gsnAddressIpv4(0)).isEqualTo(0x7F000001);
        assertThat(sim.activeSessions()).isEqualTo(1);

        GtpV0Message d = v0(exchange(b -> GtpRequestEncoder.writeV0Delete(b, 322, label, tid)));
        assertThat(d.messageType()).isEqualTo(21);
        assertThat(d.sequence()).isEqualTo(322);
        assertThat(d.flowLabel()).isEqualTo(0x0A0B);
        assertThat(d.ies().cause()).isEqualTo(128);
        assertThat(v0(exchange(b -> GtpRequestEncoder.writeV0Delete(b, 323, label, tid))).ies().cause()).isEqualTo(210);
        assertThat(sim.activeSessions()).isZero();
    }

    @Test
    void v2CreateSessionAndDeleteSession() throws Exception {
        start(GgsnSimulator.builder().recovery(9));
        GtpV2Message r = v2(exchange(b -> GtpRequestEncoder.writeV2Create(b, 0x123456, IMSI, 6, 0xABCD, SGSN, APN)));

        assertThat(r.messageType()).isEqualTo(33);
        assertThat(r.sequence()).isEqualTo(0x123456);
        assertThat(r.teid()).isEqualTo(0xABCD);
        assertThat(r.cause()).isEqualTo(16);
        assertThat(r.recovery()).isEqualTo(9);
        assertThat(r.ebi()).isEqualTo(6);
        GtpV2Fteid f = new GtpV2Fteid();
        assertThat(r.fteid(1, f)).isTrue();
        assertThat(f.interfaceType()).isEqualTo(GtpV2Ie.IF_S5S8_PGW_GTPC);
        assertThat(f.ipv4()).isEqualTo(0x7F000001);
        int pgwTeid = f.teid();
        assertThat(pgwTeid).isNotZero();
        assertThat(sim.activeSessions()).isEqualTo(1);

        GtpV2Message d = v2(exchange(b -> GtpRequestEncoder.writeV2Delete(b, 0x123457, pgwTeid, 6)));
        assertThat(d.messageType()).isEqualTo(37);
        assertThat(d.sequence()).isEqualTo(0x123457);
        assertThat(d.teid()).isEqualTo(0xABCD);
        assertThat(d.cause()).isEqualTo(16);
        assertThat(v2(exchange(b -> GtpRequestEncoder.writeV2Delete(b, 1, pgwTeid, 6))).cause()).isEqualTo(64);
        assertThat(sim.activeSessions()).isZero();
    }

    @Test
    void theCauseMixIsHonouredAndMappedToV2() throws Exception {
        start(GgsnSimulator.builder().causeMix(CauseMix.parse("128:90,199:10")).seed(42));
        int n = 2_000;
        int rejectedV1 = 0;
        for (int i = 0; i < n; i++) {
            int seq = i;
            GtpV1Message r = v1(exchange(b -> GtpRequestEncoder.writeV1Create(b, seq, IMSI, 5, 1, 1, SGSN, APN)));
            int cause = r.ies().cause();
            assertThat(cause).isIn(128, 199);
            if (cause == 199) {
                rejectedV1++;
                assertThat(r.ies().hasTeidControl()).isFalse();
                assertThat(r.ies().recovery()).isEqualTo(1);
            }
        }
        // 10 % of 2000 = 200; binomial sd ~13.4, so +-70 is over 5 sd.
        assertThat(rejectedV1).isBetween(130, 270);
        assertThat(sim.createResponses(1, 199)).isEqualTo(rejectedV1);
        assertThat(sim.createResponses(1, 128)).isEqualTo(n - rejectedV1);

        int rejectedV2 = 0;
        for (int i = 0; i < 500; i++) {
            int seq = i;
            int cause = v2(exchange(b -> GtpRequestEncoder.writeV2Create(b, seq, IMSI, 5, 1, SGSN, APN))).cause();
            assertThat(cause).isIn(16, 73);
            rejectedV2 += cause == 73 ? 1 : 0;
        }
        assertThat(rejectedV2).isBetween(15, 90);
    }

    @Test
    void latencyDelaysEveryResponse() throws Exception {
        start(GgsnSimulator.builder().latencyMicros(80_000));
        long t0 = System.nanoTime();
        GtpV1Message r = v1(exchange(b -> echoRequestV1(b, 5)));
        long elapsedMicros = (System.nanoTime() - t0) / 1_000;
        assertThat(r.sequence()).isEqualTo(5);
        assertThat(elapsedMicros).isGreaterThanOrEqualTo(80_000);
    }

    @Test
    void malformedDatagramsAreCountedAndNotAnswered() throws Exception {
        start(GgsnSimulator.builder());
        // v1 header claiming 200 octets of IEs in a 12-octet datagram, then a valid echo:
        // the first answer must be the echo's.
        ByteBuf bad = Unpooled.buffer();
        GtpResponseEncoder.v1Header(bad, 16, 0, 1);
        bad.setShort(2, 200);
        byte[] bytes = new byte[bad.readableBytes()];
        bad.readBytes(bytes);
        client.send(new DatagramPacket(bytes, bytes.length, sim.boundAddresses().get(0)));
        GtpV1Message e = v1(exchange(b -> echoRequestV1(b, 8)));
        assertThat(e.sequence()).isEqualTo(8);
        assertThat(sim.malformed()).isEqualTo(1);
    }

    private static void echoRequestV1(ByteBuf b, int seq) {
        GtpResponseEncoder.v1Header(b, 1, 0, seq);
        GtpResponseEncoder.patchV1Length(b, 0);
    }

    @Test
    void echoEncoderLengthsAgree() {
        // The simulator relies on the gtp module's echo encoder; its buffers are sized from these constants.
        ByteBuf b = Unpooled.buffer();
        assertThat(GtpEchoEncoder.writeV2(b, 1, 1)).isEqualTo(b.readableBytes());
    }
}
