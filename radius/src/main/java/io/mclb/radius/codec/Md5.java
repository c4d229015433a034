package io.mclb.radius.codec;

import io.netty.buffer.ByteBuf;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * One reused MD5 engine plus HMAC-MD5 (RFC 2104) built on it with the pads precomputed in
 * {@link RadiusSecret}: no {@code javax.crypto.Mac} because {@code Mac.init} per secret would
 * allocate per packet when secrets differ per NAS/real. Not thread-safe: one per event loop.
 */
final class Md5 {
    private final MessageDigest md;
    private final byte[] copy = new byte[RadiusPacket.MAX_LENGTH];
    private final byte[] inner = new byte[16];

    Md5() {
        try {
            md = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is mandatory in every JRE", e);
        }
    }

    void reset() {
        md.reset();
    }

    void update(byte[] b) {
        md.update(b, 0, b.length);
    }

    void update(byte[] b, int off, int len) {
        md.update(b, off, len);
    }

    /** Heap buffers are hashed in place; direct ones through one copy into a reused array (len &lt;= 4096). */
    void update(ByteBuf buf, int index, int len) {
        if (len <= 0) {
            return;
        }
        if (buf.hasArray()) {
            md.update(buf.array(), buf.arrayOffset() + index, len);
        } else {
            buf.getBytes(index, copy, 0, len);
            md.update(copy, 0, len);
        }
    }

    void digest(byte[] dst) {
        try {
            md.digest(dst, 0, 16);
        } catch (DigestException e) {
            throw new IllegalStateException("16-octet destination is always large enough", e);
        }
    }

    void hmacStart(RadiusSecret key) {
        md.reset();
        md.update(key.innerPad(), 0, 64);
    }

    void hmacFinish(RadiusSecret key, byte[] dst) {
        digest(inner);
        md.update(key.outerPad(), 0, 64);
        md.update(inner, 0, 16);
        digest(dst);
    }
}
