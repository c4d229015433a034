package io.mclb.ha.replication;

import io.netty.buffer.ByteBuf;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;

import java.nio.charset.StandardCharsets;

/**
 * Writes and verifies replication frames for one connection. Not thread-safe: one per connection
 * side, used on that connection's event loop.
 *
 * <pre>
 *  0               4      5      6                       14                      22        22+n      54+n
 * +---------------+------+------+-----------------------+-----------------------+---------+---------+
 * | length (BE)   | type | flags| sequence (BE)         | epochMicros (BE)      | payload | HMAC    |
 * +---------------+------+------+-----------------------+-----------------------+---------+---------+
 *   length = bytes after the length field = 18 + n + 32
 * </pre>
 * The HMAC-SHA256 covers type through payload. HELLO (sequence 0) is keyed with the password; every
 * later frame with the session key {@code HMAC(password, "mclb-replication" | nonce)}, the nonce being
 * the one the standby sent in its HELLO, so frames recorded from one connection cannot be replayed
 * into another. Sequences start at 1 after HELLO and rise by one per frame: a gap, a repeat or a
 * reorder is refused.
 */
final class FrameCodec {
    static final int LENGTH_FIELD = 4;
    static final int HEADER = 18;
    static final int MAC = 32;
    static final int NONCE = 16;
    /** Largest frame after the length field: a configuration of up to 16 MiB. */
    static final int MAX_FRAME = (16 << 20) + HEADER + MAC;

    private static final byte[] LABEL = "mclb-replication".getBytes(StandardCharsets.US_ASCII);

    private final byte[] passwordKey;
    private final HMac mac = new HMac(new SHA256Digest());
    private final byte[] macOut = new byte[MAC];
    private byte[] scratch = new byte[256];

    FrameCodec(String password) {
        this.passwordKey = (password == null ? "" : password).getBytes(StandardCharsets.UTF_8);
        mac.init(new KeyParameter(passwordKey));
    }

    /** Switches to the session key derived from the standby's HELLO nonce. */
    void useSessionKey(byte[] nonce) {
        HMac derive = new HMac(new SHA256Digest());
        derive.init(new KeyParameter(passwordKey));
        derive.update(LABEL, 0, LABEL.length);
        derive.update(nonce, 0, nonce.length);
        byte[] key = new byte[MAC];
        derive.doFinal(key, 0);
        mac.init(new KeyParameter(key));
    }

    /** Writes the header of a frame with {@code payloadLength} bytes; the caller writes the payload then calls {@link #end}. */
    static int begin(ByteBuf out, FrameType type, long sequence, long epochMicros, int payloadLength) {
        return begin(out, type, 0, sequence, epochMicros, payloadLength);
    }

    /** {@link #begin} with the flags byte (only a HELLO carries flags). */
    static int begin(ByteBuf out, FrameType type, int flags, long sequence, long epochMicros, int payloadLength) {
        int start = out.writerIndex();
        out.writeInt(HEADER + payloadLength + MAC);
        out.writeByte(type.code);
        out.writeByte(flags);
        out.writeLong(sequence);
        out.writeLong(epochMicros);
        return start;
    }

    /** Appends the HMAC over the frame started at {@code start}. */
    void end(ByteBuf out, int start) {
        int from = start + LENGTH_FIELD;
        compute(out, from, out.writerIndex() - from);
        out.writeBytes(macOut);
    }

    /**
     * Checks the HMAC of a whole frame (after the length field: {@code frame} from its reader index
     * to its writer index). Constant time in the MAC bytes.
     */
    boolean verify(ByteBuf frame) {
        int from = frame.readerIndex();
        int covered = frame.readableBytes() - MAC;
        if (covered < HEADER) {
            return false;
        }
        compute(frame, from, covered);
        int diff = 0;
        for (int i = 0; i < MAC; i++) {
            diff |= macOut[i] ^ frame.getByte(from + covered + i);
        }
        return diff == 0;
    }

    private void compute(ByteBuf buf, int from, int len) {
        if (buf.hasArray()) {
            mac.update(buf.array(), buf.arrayOffset() + from, len);
        } else {
            if (scratch.length < len) {
                scratch = new byte[Math.max(len, scratch.length * 2)];
            }
            buf.getBytes(from, scratch, 0, len);
            mac.update(scratch, 0, len);
        }
        mac.doFinal(macOut, 0);
    }
}
