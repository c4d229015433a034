package io.mclb.radius.codec;

import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * Re-encryption in place of the attributes hidden with the shared secret and the Request
 * Authenticator, moving them from (secret A, authenticator A) to (secret B, authenticator B):
 * <ul>
 * <li>User-Password (2), RFC 2865 section 5.2: {@code c1 = p1 xor MD5(S|RA)}, {@code ci = pi xor MD5(S|c(i-1))},
 *     16..128 octets in 16-octet blocks;</li>
 * <li>salted, RFC 2868 section 3.5 (Tunnel-Password, 69: Tag(1) Salt(2) String):
 *     {@code b1 = MD5(S|R|A)} with A the 2-octet salt, then as above; RFC 2548 2.4.2/2.4.3 uses the
 *     same scheme without Tag for MS-MPPE-Send-Key / MS-MPPE-Recv-Key (vendor 311, types 16/17).
 *     Other salted attributes exist (e.g. RFC 6929 "encrypt=2" dictionary flags in FreeRADIUS, Ascend
 *     and WiMAX key attributes) and are not handled: a packet carrying them cannot be re-signed
 *     correctly by this class.</li>
 * </ul>
 * Plaintext exists one 16-octet block at a time in a private scratch array that is wiped after
 * use. Texts checked: RFC 2865/2868 via the tool library (O'Reilly RADIUS quoting RFC 2868 3.5;
 * /work/shared/reference/radius.md section 5). Not thread-safe; owned by one {@link RadiusCrypto}.
 */
final class HiddenAttributes {
    private final Md5 md5;
    private final byte[] key = new byte[16];
    private final byte[] block = new byte[16];
    private final byte[] chainFrom = new byte[16];
    private final byte[] chainTo = new byte[16];

    HiddenAttributes(Md5 md5) {
        this.md5 = md5;
    }

    /** Checks every hidden attribute's length before anything is changed; {@code null} when all fit. */
    DropReason validate(RadiusPacket p, boolean userPassword) {
        boolean scan = userPassword && p.has(RadiusAttributes.USER_PASSWORD) || p.has(RadiusAttributes.TUNNEL_PASSWORD);
        for (int a = scan ? p.firstAttributeIndex() : -1; a >= 0; a = p.nextAttributeIndex(a)) {
            int type = p.attributeType(a);
            int len = p.valueLength(a);
            if (userPassword && type == RadiusAttributes.USER_PASSWORD && !validCipher(len, 128)) {
                return RadiusDrops.BAD_HIDDEN_ATTRIBUTE;
            }
            if (type == RadiusAttributes.TUNNEL_PASSWORD && !validCipher(len - 3, 240)) {
                return RadiusDrops.BAD_HIDDEN_ATTRIBUTE;
            }
        }
        return validateMppe(p, RadiusAttributes.MS_MPPE_SEND_KEY) != null
                ? RadiusDrops.BAD_HIDDEN_ATTRIBUTE : validateMppe(p, RadiusAttributes.MS_MPPE_RECV_KEY);
    }

    private DropReason validateMppe(RadiusPacket p, int type) {
        int s = p.findVendorAttribute(RadiusAttributes.VENDOR_MICROSOFT, type);
        return s < 0 || validCipher(p.valueLength(s) - 2, 240) ? null : RadiusDrops.BAD_HIDDEN_ATTRIBUTE;
    }

    private static boolean validCipher(int len, int max) {
        return len >= 16 && len <= max && (len & 15) == 0;
    }

    /** Re-hides every User-Password; call {@link #validate} first. */
    void reHideUserPasswords(RadiusPacket p, RadiusSecret fromSecret, byte[] fromAuth,
                             RadiusSecret toSecret, byte[] toAuth) {
        ByteBuf buf = p.buffer();
        for (int a = p.findAttribute(RadiusAttributes.USER_PASSWORD); a >= 0;
             a = p.nextAttribute(RadiusAttributes.USER_PASSWORD, a + buf.getUnsignedByte(a + 1))) {
            reEncrypt(buf, -1, a + 2, p.valueLength(a), fromSecret, fromAuth, toSecret, toAuth);
        }
    }

    /** Re-salts every Tunnel-Password and MS-MPPE key, keeping tag and salt; call {@link #validate} first. */
    void reSalt(RadiusPacket p, RadiusSecret fromSecret, byte[] fromAuth, RadiusSecret toSecret, byte[] toAuth) {
        ByteBuf buf = p.buffer();
        for (int a = p.findAttribute(RadiusAttributes.TUNNEL_PASSWORD); a >= 0;
             a = p.nextAttribute(RadiusAttributes.TUNNEL_PASSWORD, a + buf.getUnsignedByte(a + 1))) {
            reEncrypt(buf, a + 3, a + 5, p.valueLength(a) - 3, fromSecret, fromAuth, toSecret, toAuth);
        }
        reSaltMppe(p, RadiusAttributes.MS_MPPE_SEND_KEY, fromSecret, fromAuth, toSecret, toAuth);
        reSaltMppe(p, RadiusAttributes.MS_MPPE_RECV_KEY, fromSecret, fromAuth, toSecret, toAuth);
    }

    private void reSaltMppe(RadiusPacket p, int type, RadiusSecret fromSecret, byte[] fromAuth,
                            RadiusSecret toSecret, byte[] toAuth) {
        int s = p.findVendorAttribute(RadiusAttributes.VENDOR_MICROSOFT, type);
        if (s >= 0) {
            reEncrypt(p.buffer(), s + 2, s + 4, p.valueLength(s) - 2, fromSecret, fromAuth, toSecret, toAuth);
        }
    }

    /**
     * Decrypts one block under A and encrypts it under B before moving on, so the chains of both
     * sides (previous ciphertext blocks) are carried in {@code chainFrom}/{@code chainTo}.
     */
    private void reEncrypt(ByteBuf buf, int saltIndex, int cipherIndex, int cipherLength,
                           RadiusSecret fromSecret, byte[] fromAuth, RadiusSecret toSecret, byte[] toAuth) {
        System.arraycopy(fromAuth, 0, chainFrom, 0, 16);
        System.arraycopy(toAuth, 0, chainTo, 0, 16);
        for (int off = 0; off < cipherLength; off += 16) {
            int idx = cipherIndex + off;
            keyStream(fromSecret, chainFrom, off == 0 ? saltIndex : -1, buf);
            buf.getBytes(idx, chainFrom, 0, 16);
            for (int i = 0; i < 16; i++) {
                block[i] = (byte) (chainFrom[i] ^ key[i]);
            }
            keyStream(toSecret, chainTo, off == 0 ? saltIndex : -1, buf);
            for (int i = 0; i < 16; i++) {
                chainTo[i] = (byte) (block[i] ^ key[i]);
            }
            buf.setBytes(idx, chainTo, 0, 16);
        }
        Arrays.fill(block, (byte) 0);
        Arrays.fill(key, (byte) 0);
    }

    private void keyStream(RadiusSecret secret, byte[] chain, int saltIndex, ByteBuf buf) {
        md5.reset();
        md5.update(secret.bytes());
        md5.update(chain, 0, 16);
        if (saltIndex >= 0) {
            md5.update(buf, saltIndex, 2);
        }
        md5.digest(key);
    }
}
