package io.mclb.gtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.mclb.gtp.v0.GtpV0Message;
import io.mclb.gtp.v1.GtpV1Message;
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
    private final GtpAccessors read = new GtpAccessors();

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
                read.v0(v0);
            } else {
                assertThat(v0.reason()).isNotNull();
            }
            if (v1.wrap(buf)) {
                accepted++;
                read.v1(v1);
            } else {
                assertThat(v1.reason()).isNotNull();
            }
            if (v2.wrap(buf)) {
                accepted++;
                read.v2(v2);
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
}
