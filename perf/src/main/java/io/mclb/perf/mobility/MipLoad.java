package io.mclb.perf.mobility;

import io.mclb.gtp.mip.MipMessage;
import io.netty.buffer.ByteBuf;

/**
 * Registration Requests (RFC 5944 3.3) of mobile nodes {@code mn<NNNNNNNNNN>@load.example} (NAI
 * extension 131) to Home Agent 0.0.0.0 (dynamic assignment), Home Address 0, with an MN-HA
 * authentication extension (SPI 256, 16 octets). The Identification's low 32 bits are
 * {@code flow << 24 | counter}: unique per flow and request, so requests of different flows never
 * share an id on mclb's upstream path (real mobile nodes' timestamps differ in those bits too).
 */
public final class MipLoad implements MobilityProtocol {
    private static final int NAI_DIGITS = 10;
    private static final byte[] NAI_SUFFIX = "@load.example".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private final int lifetime;

    /** @param lifetime requested seconds (0 = deregistrations) */
    public MipLoad(int lifetime) {
        this.lifetime = lifetime;
    }

    @Override
    public int requestCapacity() {
        return 24 + 2 + 2 + NAI_DIGITS + NAI_SUFFIX.length + 2 + 20;
    }

    @Override
    public int keyBits() {
        return 24;
    }

    @Override
    public void writeRequest(ByteBuf out, long subscriber, int flow, long counter) {
        out.writeByte(MipMessage.TYPE_REQUEST).writeByte(0x02).writeShort(lifetime);
        out.writeInt(0).writeInt(0).writeInt(0xC6336407); // HoA 0, HA 0.0.0.0, CoA 198.51.100.7
        out.writeInt((int) (counter >>> 24)).writeInt((flow << 24) | (int) (counter & 0xFFFFFF));
        out.writeByte(MipMessage.EXT_NAI).writeByte(2 + NAI_DIGITS + NAI_SUFFIX.length);
        out.writeByte('m').writeByte('n');
        long n = subscriber;
        int at = out.writerIndex();
        out.writeZero(NAI_DIGITS);
        for (int i = NAI_DIGITS - 1; i >= 0; i--) {
            out.setByte(at + i, '0' + (int) (n % 10));
            n /= 10;
        }
        out.writeBytes(NAI_SUFFIX);
        out.writeByte(32).writeByte(20).writeInt(256).writeLong(0x6d636c62_6d697061L).writeLong(counter);
    }

    @Override
    public long answerKey(ByteBuf in) {
        long low = MipMessage.replyId(in);
        return low < 0 ? -1 : low & 0xFFFFFF;
    }

    @Override
    public boolean accepted(ByteBuf in) {
        int code = in.getUnsignedByte(in.readerIndex() + 1);
        return code == 0 || code == 1;
    }

    @Override
    public String name() {
        return "mip";
    }
}
