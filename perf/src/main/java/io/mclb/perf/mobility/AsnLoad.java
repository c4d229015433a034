package io.mclb.perf.mobility;

import io.mclb.gtp.asn.AsnHeader;
import io.netty.buffer.ByteBuf;

/**
 * R6 MS_PreAttachment_Req messages (function 9, OP ID 1, type 1: NWG R1.0 v1.2) of MSIDs
 * {@code base + n}, with a BS ID TLV (type 25); the transaction ID is the request counter's low
 * 15 bits, which the answer echoes.
 */
public final class AsnLoad implements MobilityProtocol {
    private final long msidBase;

    public AsnLoad(long msidBase) {
        this.msidBase = msidBase;
    }

    @Override
    public int requestCapacity() {
        return 30;
    }

    @Override
    public int keyBits() {
        return 15;
    }

    @Override
    public void writeRequest(ByteBuf out, long subscriber, int flow, long counter) {
        long msid = (msidBase + subscriber) & 0xFFFF_FFFF_FFFFL;
        out.writeByte(AsnHeader.VERSION).writeByte(0).writeByte(AsnHeader.FUNCTION_MS_STATE)
                .writeByte((AsnHeader.OP_REQUEST << 5) | 1).writeShort(30);
        out.writeShort((int) (msid >>> 32)).writeInt((int) msid).writeInt(0);
        out.writeShort((int) (counter & AsnHeader.TID_MASK)).writeShort(0);
        out.writeShort(25).writeShort(6).writeShort(0x0011).writeInt(0x22330000 | flow);
    }

    @Override
    public long answerKey(ByteBuf in) {
        return AsnHeader.responseId(in);
    }

    @Override
    public boolean accepted(ByteBuf in) {
        return true;
    }

    @Override
    public String name() {
        return "asn";
    }
}
