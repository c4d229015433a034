package io.mclb.gtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.mclb.gtp.v0.GtpV0Message;
import io.mclb.gtp.v1.GtpV1Message;
import io.mclb.gtp.v2.GtpV2Message;
import io.mclb.testing.FuzzCorpus;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.HexFormat;

/**
 * The property the three GTP decoder fuzz targets check on one datagram: {@code wrap} refuses
 * with a reason or accepts without throwing; every accessor and in-place patch the relay uses
 * stays inside the datagram (the buffer ends at its last octet) and the patches leave the
 * octets as they were; and a request the relay would forward (accepted, no
 * {@link GtpHeader#violation()}) is one that {@link StrictGtpChecker}, written without the
 * flyweights, also finds well formed (issue 14 item 5: nothing malformed reaches a GGSN).
 */
final class GtpDecoderFuzzChecks {
    private final GtpV0Message v0 = new GtpV0Message();
    private final GtpV1Message v1 = new GtpV1Message();
    private final GtpV2Message v2 = new GtpV2Message();
    private final GtpAccessors read = new GtpAccessors();

    void check(int version, byte[] datagram) {
        ByteBuf buf = FuzzCorpus.datagram(datagram);
        GtpHeader m = switch (version) {
            case 0 -> v0;
            case 1 -> v1;
            default -> v2;
        };
        if (!m.wrap(buf)) {
            assertThat(m.reason()).as("a refusal names its reason").isNotNull();
            return;
        }
        switch (version) {
            case 0 -> read.v0(v0);
            case 1 -> read.v1(v1);
            default -> read.v2(v2);
        }
        assertThat(ByteBufUtil.getBytes(buf)).as("patching back what was read changes nothing").isEqualTo(datagram);
        // what the relay forwards: no header violation, and for v2 no P flag on a request
        // (GtpV2Dialect.requestViolation drops it as gtp_bad_piggyback)
        boolean forwarded = m.violation() == null && m.type().isRequest() && m.hasSequence()
            && !(version == 2 && v2.hasPiggyback());
        if (forwarded) {
            byte[] message = ByteBufUtil.getBytes(buf, buf.readerIndex(), m.messageLength());
            assertThat(StrictGtpChecker.problem(message))
                .as("a forwardable v%d request %s", version, HexFormat.of().formatHex(message)).isNull();
        }
    }
}
