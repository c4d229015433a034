package io.mclb.gtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.mclb.gtp.v0.GtpV0Message;
import io.mclb.gtp.v0.TidLayout;
import io.mclb.gtp.v1.GtpV1IeCursor;
import io.mclb.gtp.v1.GtpV1IeIndex;
import io.mclb.gtp.v1.GtpV1Message;
import io.mclb.gtp.v2.GtpV2Fteid;
import io.mclb.gtp.v2.GtpV2IeCursor;
import io.mclb.gtp.v2.GtpV2Message;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * 100k seeded random mutations of valid messages through every flyweight and accessor: wrap may
 * refuse, but nothing may throw, and a refusal always names a reason.
 */
class GtpFuzzTest {
    private static final int ROUNDS = 100_000;

    private final GtpV0Message v0 = new GtpV0Message();
    private final GtpV1Message v1 = new GtpV1Message();
    private final GtpV2Message v2 = new GtpV2Message();
    private final GtpV1IeCursor c1 = new GtpV1IeCursor();
    private final GtpV2IeCursor c2 = new GtpV2IeCursor();
    private final GtpV2Fteid fteid = new GtpV2Fteid();
    private final byte[] addr = new byte[16];
    private long sink;

    @Test
    void randomMutationsNeverThrow() {
        List<byte[]> seeds = List.of(
            GtpTestMessages.v0CreateRequest(),
            GtpTestMessages.v1CreateRequest(),
            GtpTestMessages.v1CreateResponse(128),
            GtpTestMessages.v1CreateResponse(199),
            GtpTestMessages.v2CreateSessionRequest(),
            GtpTestMessages.v2CreateSessionResponse(16),
            GtpTestMessages.v2CreateSessionResponse(73),
            GtpTestMessages.hex("36020000 00000000 00010040 01086800 0e05"));
        Random rnd = new Random(20240601L);
        int accepted = 0;
        for (int round = 0; round < ROUNDS; round++) {
            byte[] msg = mutate(seeds.get(rnd.nextInt(seeds.size())), rnd);
            ByteBuf buf = Unpooled.wrappedBuffer(msg);
            if (v0.wrap(buf)) {
                accepted++;
                exerciseV0();
            } else {
                assertThat(v0.reason()).isNotNull();
            }
            if (v1.wrap(buf)) {
                accepted++;
                exerciseV1();
            } else {
                assertThat(v1.reason()).isNotNull();
            }
            if (v2.wrap(buf)) {
                accepted++;
                exerciseV2();
            } else {
                assertThat(v2.reason()).isNotNull();
            }
        }
        // the mutations must leave many messages valid, or the accessors were barely exercised
        assertThat(accepted).isGreaterThan(ROUNDS / 5);
    }

    private static byte[] mutate(byte[] seed, Random rnd) {
        byte[] b = seed.clone();
        switch (rnd.nextInt(6)) {
            case 0 -> b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
            case 1 -> {
                for (int i = rnd.nextInt(4) + 1; i > 0; i--) {
                    b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
                }
            }
            case 2 -> b = java.util.Arrays.copyOf(b, rnd.nextInt(b.length + 1));
            case 3 -> b = java.util.Arrays.copyOf(b, b.length + rnd.nextInt(40));
            case 4 -> {
                int len = rnd.nextInt(0x10000);
                b[2] = (byte) (len >>> 8);
                b[3] = (byte) len;
            }
            default -> {
                // keep the header, randomise one octet in the IE area (types and lengths)
                int p = Math.min(b.length - 1, 12 + rnd.nextInt(Math.max(1, b.length - 12)));
                b[p] = (byte) rnd.nextInt(256);
            }
        }
        return b;
    }

    private void exerciseIndex(GtpV1IeIndex ies, boolean isV0) {
        sink += ies.cause() + ies.imsi() + ies.imsiRaw() + ies.recovery() + ies.teidControl(isV0)
            + ies.teidDataI(isV0) + ies.nsapi() + ies.apnOffset() + ies.apnLength()
            + ies.endUserAddressOffset() + ies.ieCount() + (ies.apnEquals(GtpTestMessages.APN_INTERNET) ? 1 : 0);
        for (int i = 0; i < 3; i++) {
            sink += ies.gsnAddressIpv4(i) + ies.gsnAddress(i, addr) + ies.gsnAddressLength(i);
        }
        if (ies.hasApn()) {
            sink += Apn.toDotted(ies.buffer(), ies.apnOffset(), ies.apnLength()).length();
        }
    }

    private void exerciseV0() {
        sink += v0.version() + v0.protocolType() + v0.messageType() + v0.length() + v0.sequence()
            + v0.flowLabel() + v0.tid() + v0.sndcpNpduNumber() + v0.trailingBytes() + v0.messageLength()
            + v0.type().code();
        for (TidLayout l : TidLayout.values()) {
            sink += v0.tidImsi(l) + v0.tidNsapi(l) + v0.tidImsiRaw(l);
        }
        exerciseIndex(v0.ies(), true);
        GtpV1IeCursor c = v0.ieCursor(c1);
        while (c.next()) {
            sink += c.type() + c.valueLength() + c.ieOffset();
        }
        v0.setSequence(v0.sequence());
    }

    private void exerciseV1() {
        sink += v1.version() + v1.protocolType() + v1.messageType() + v1.length() + v1.sequence()
            + v1.teid() + v1.iesOffset() + v1.trailingBytes() + v1.messageLength() + v1.type().code();
        exerciseIndex(v1.ies(), false);
        GtpV1IeCursor c = v1.ieCursor(c1);
        while (c.next()) {
            sink += c.type() + c.valueLength() + c.ieOffset();
        }
        v1.setSequence(Math.max(0, v1.sequence()));
        v1.setTeid(v1.teid());
    }

    private void exerciseV2() {
        sink += v2.version() + v2.messageType() + v2.length() + v2.sequence() + v2.teid()
            + v2.messagePriority() + v2.piggybackOffset() + v2.imsi() + v2.imsiRaw() + v2.cause()
            + v2.causeFlags() + v2.recovery() + v2.ebi() + v2.ratType() + v2.apnOffset() + v2.trailingBytes()
            + v2.bearerContextOffset() + v2.ieCount() + v2.type().code() + (v2.isCommandSequence() ? 1 : 0);
        for (int i = 0; i < 3; i++) {
            if (v2.fteid(i, fteid)) {
                sink += fteid.interfaceType() + fteid.teid() + fteid.ipv4() + fteid.ipv4Offset()
                    + fteid.ipv6Offset() + (fteid.ipv6(addr) ? 1 : 0);
            }
        }
        GtpV2IeCursor c = v2.ieCursor(c2);
        while (c.next()) {
            sink += c.type() + c.instance() + c.valueLength() + c.ieOffset();
        }
        v2.setSequence(v2.sequence());
        v2.setTeid(v2.teid());
    }
}
