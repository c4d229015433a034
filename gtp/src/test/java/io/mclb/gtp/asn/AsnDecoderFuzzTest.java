package io.mclb.gtp.asn;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mclb.testing.FuzzCorpus;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzz target: the WiMAX R6 header and TLV walk ({@link AsnHeader}); seeds in fuzz/asn/. A
 * refusal names its reason; an accepted message answers every accessor from inside the
 * datagram, the relay's transaction-id rewrite touches only the 15 id bits (the message still
 * wraps, the D bit and every other octet stay), and writing the id back restores the datagram.
 */
@Tag("fuzz")
class AsnDecoderFuzzTest {
    private final AsnHeader h = new AsnHeader();

    static Stream<byte[]> seeds() {
        return FuzzCorpus.seeds("asn");
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "60s")
    void wrapReadRewrite(byte[] datagram) {
        ByteBuf buf = FuzzCorpus.datagram(datagram);
        long responseId = AsnHeader.responseId(buf);
        if (!h.wrap(buf)) {
            assertThat(h.reason()).isNotNull();
            return;
        }
        long msid = h.msid();
        assertThat(msid >>> 48).isZero();
        int tid = h.transactionId();
        assertThat(responseId).isEqualTo(h.opId() == AsnHeader.OP_RESPONSE ? tid & AsnHeader.TID_MASK : -1);
        assertThat(h.functionType() + h.messageType()).isNotNegative();

        int upstream = ~tid & AsnHeader.TID_MASK;
        AsnHeader.writeTransactionId(buf, upstream);
        assertThat(h.wrap(buf)).as("rewritten id still wraps").isTrue();
        assertThat(h.transactionId()).isEqualTo((tid & ~AsnHeader.TID_MASK) | upstream);
        AsnHeader.writeTransactionId(buf, tid);
        assertThat(ByteBufUtil.getBytes(buf)).isEqualTo(datagram);
    }
}
