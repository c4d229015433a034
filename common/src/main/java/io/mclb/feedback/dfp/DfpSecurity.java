package io.mclb.feedback.dfp;

import io.netty.buffer.ByteBuf;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

import static io.mclb.feedback.dfp.DfpWire.*;

/**
 * The DFP Security TLV's MD5 digest. The layout is public (algorithm 1 = MD5, key id, 16 digest
 * octets, first TLV of the message); <b>what Cisco hashes is not</b> (draft-eck-dfp-01 and both open
 * implementations leave it out). mclb's construction, keyed MD5 as in OSPF (RFC 2328 appendix D):
 *
 * <pre>
 *   digest = MD5( the whole message, header included, exactly as sent, with the 16 digest octets set to 0
 *                 || the password's UTF-8 octets )
 * </pre>
 * The key id is sent as 0 and not checked. mclb managers and agents interoperate with each other;
 * interoperation with Cisco's DFP security is unverified. Comparison is constant-time.
 *
 * <p>Not thread-safe: one instance per connection (it keeps its {@link MessageDigest}).
 */
public final class DfpSecurity {
    private static final byte[] ZEROS = new byte[16];
    private final MessageDigest md5;
    private final byte[] computed = new byte[16];

    public DfpSecurity() {
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no MD5", e);
        }
    }

    /** Fills the digest of the message at {@code start} (its Security TLV is first, digest zeroed). */
    public void sign(ByteBuf buf, int start, byte[] password) {
        int length = (int) buf.getUnsignedInt(start + 4);
        int digestAt = start + HEADER_LENGTH + SECURITY_DIGEST_OFFSET;
        digest(buf, start, length, digestAt, password);
        buf.setBytes(digestAt, computed);
    }

    /** Whether the message's first TLV is a valid MD5 Security TLV under {@code password}. */
    public boolean verify(DfpMessage m, byte[] password) {
        int at = m.firstTlv();
        if (at < 0 || m.tlvType(at) != TLV_SECURITY
                || m.buffer().getInt(at + 4) != SECURITY_ALGORITHM_MD5) {
            return false;
        }
        int digestAt = at + SECURITY_DIGEST_OFFSET;
        digest(m.buffer(), m.base(), m.length(), digestAt, password);
        int diff = 0;
        for (int i = 0; i < 16; i++) {
            diff |= computed[i] ^ m.buffer().getByte(digestAt + i);
        }
        return diff == 0;
    }

    private void digest(ByteBuf buf, int start, int length, int digestAt, byte[] password) {
        md5.reset();
        update(buf, start, digestAt - start);
        md5.update(ZEROS);
        update(buf, digestAt + 16, start + length - digestAt - 16);
        md5.update(password);
        try {
            md5.digest(computed, 0, 16);
        } catch (java.security.DigestException e) {
            throw new IllegalStateException(e);
        }
    }

    private void update(ByteBuf buf, int from, int len) {
        if (len > 0) {
            md5.update(buf.nioBuffer(from, len));
        }
    }

    /** Whether the message carries a Security TLV first (it is then signed, whatever the key). */
    public static boolean signed(DfpMessage m) {
        int at = m.firstTlv();
        return at >= 0 && m.tlvType(at) == TLV_SECURITY;
    }
}
