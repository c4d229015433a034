package io.mclb.gtp.asn;

import java.nio.ByteBuffer;

/** WiMAX R6 messages for tests, laid out as Wireshark's wimaxasncp dissector reads them. */
final class R6 {
    private R6() {
    }

    /** A message with one TLV (BS ID, type 25, 6 octets) after the 20-octet header. */
    static byte[] message(int function, int op, int type, long msid, int tid) {
        ByteBuffer b = ByteBuffer.allocate(30);
        b.put((byte) 1).put((byte) 0).put((byte) function).put((byte) ((op << 5) | type)).putShort((short) 30);
        b.putShort((short) (msid >>> 32)).putInt((int) msid);
        b.putInt(0).putShort((short) tid).putShort((short) 0);
        b.putShort((short) 25).putShort((short) 6).put(new byte[] {0, 0x11, 0x22, 0x33, 0x44, 0x55});
        return b.array();
    }

    static byte[] preAttachmentReq(long msid, int tid) {
        return message(9, 1, 1, msid, tid);
    }

    static byte[] preAttachmentAck(long msid, int tid) {
        return message(9, 3, 3, msid, tid);
    }

    static int tid(byte[] m) {
        return ((m[16] & 0xFF) << 8) | (m[17] & 0xFF);
    }

    static int op(byte[] m) {
        return (m[3] & 0xFF) >>> 5;
    }

    static int type(byte[] m) {
        return m[3] & 0x1F;
    }
}
