package io.mclb.ha.group;

import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Arrays;

/**
 * mclb's group-protocol message. Not HSRP on the wire (HSRP's MD5 digest construction is
 * unverified, reference/hsrp.md section 11): the same facts as an HSRP v2 Group State TLV plus
 * what a software pair needs (connectivity score, replay protection, active time), authenticated
 * by HMAC-SHA256 (Bouncy Castle {@code HMac(SHA256Digest)}) keyed with the
 * {@code authentication md5 key-string} secret. Network byte order:
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   'M' 0x4D    |   'H' 0x48    | format = 1    |    type       |  0
 * |          group (0..4095)      | state (v2 code)|   flags       |  4   flags: 1 forced, 2 IPv6
 * |          priority             |   connectivity score (0..1000)|  8
 * |                          hello ms                             | 12
 * |                          hold ms                              | 16
 * |                     boot id (epoch ms, 64 bits)               | 20
 * |                     sequence (64 bits)                        | 28
 * |                          active for ms                        | 36
 * |                sender address (16; IPv4 in the first 4)       | 40
 * |                virtual address (16; all zero = unknown)       | 56
 * | auth length   |  HMAC-SHA256 over octets 0..72 (32, when auth length = 32)  | 72
 * </pre>
 *
 * Total 73 octets unauthenticated, 105 authenticated. A receiver with a key refuses a message
 * without a valid HMAC; one without a key refuses an authenticated message (a configuration
 * mismatch must show, not pass silently). Replays are refused by the caller from (boot id, sequence).
 */
public final class HelloCodec {
    static final int HEADER = 72;
    static final int MAC_LEN = 32;
    static final int FLAG_FORCED = 1;
    static final int FLAG_V6 = 2;

    /** Why a message was refused: the {@code reason} label of {@code mclb_ha_hellos_refused_total}. */
    public enum Refusal {
        MALFORMED("malformed"), BAD_AUTH("bad_auth"), UNKNOWN_PEER("unknown_peer"), REPLAY("replay"),
        UNKNOWN_GROUP("unknown_group");

        public final String label;

        Refusal(String label) {
            this.label = label;
        }
    }

    /** A decoded message, or why it was refused. */
    public record Decoded(Hello hello, Refusal refusal) {
    }

    private final byte[] key;

    /** @param key the shared secret, or null for unauthenticated hellos */
    public HelloCodec(byte[] key) {
        this.key = key == null ? null : key.clone();
    }

    public byte[] encode(Hello h) {
        int len = HEADER + 1 + (key == null ? 0 : MAC_LEN);
        ByteBuffer b = ByteBuffer.allocate(len);
        boolean v6 = !(h.sender() instanceof Inet4Address);
        b.put((byte) 'M').put((byte) 'H').put((byte) 1).put((byte) h.type().code);
        b.putShort((short) h.group()).put((byte) h.state().v2Code)
                .put((byte) ((h.forced() ? FLAG_FORCED : 0) | (v6 ? FLAG_V6 : 0)));
        b.putShort((short) h.priority()).putShort((short) h.score());
        b.putInt(h.helloMs()).putInt(h.holdMs()).putLong(h.bootId()).putLong(h.sequence());
        b.putInt((int) Math.min(h.activeForMs(), 0xffff_ffffL));
        b.put(addr16(h.sender())).put(h.vip() == null ? new byte[16] : addr16(h.vip()));
        if (key == null) {
            b.put((byte) 0);
        } else {
            b.put((byte) MAC_LEN).put(mac(b.array(), HEADER));
        }
        return b.array();
    }

    /** Decodes and authenticates one datagram; never throws on bad input. */
    public Decoded decode(byte[] buf, int len) {
        if (len < HEADER + 1 || buf[0] != 'M' || buf[1] != 'H' || buf[2] != 1) {
            return refused(Refusal.MALFORMED);
        }
        int authLen = buf[HEADER] & 0xff;
        if ((authLen != 0 && authLen != MAC_LEN) || len != HEADER + 1 + authLen) {
            return refused(Refusal.MALFORMED);
        }
        if (key == null ? authLen != 0
                : authLen == 0 || !MessageDigest.isEqual(mac(buf, HEADER), Arrays.copyOfRange(buf, HEADER + 1, len))) {
            return refused(Refusal.BAD_AUTH);
        }
        ByteBuffer b = ByteBuffer.wrap(buf, 0, len);
        Hello.Type type = Hello.Type.of(b.get(3) & 0xff);
        int group = b.getShort(4) & 0xffff;
        HsrpState state = HsrpState.fromV2(b.get(6) & 0xff);
        int flags = b.get(7) & 0xff;
        int priority = b.getShort(8) & 0xffff;
        int score = b.getShort(10) & 0xffff;
        int hello = b.getInt(12);
        int hold = b.getInt(16);
        if (type == null || state == null || group > 4095 || priority > 255 || score > 1000 || hello <= 0
                || hold <= hello) {
            return refused(Refusal.MALFORMED);
        }
        boolean v6 = (flags & FLAG_V6) != 0;
        InetAddress sender = addr(buf, 40, v6);
        InetAddress vip = allZero(buf, 56) ? null : addr(buf, 56, v6);
        return new Decoded(new Hello(type, group, state, priority, (flags & FLAG_FORCED) != 0, score, hello, hold,
                b.getLong(20), b.getLong(28), b.getInt(36) & 0xffff_ffffL, sender, vip), null);
    }

    private byte[] mac(byte[] data, int len) {
        HMac m = new HMac(new SHA256Digest());
        m.init(new KeyParameter(key));
        m.update(data, 0, len);
        byte[] out = new byte[MAC_LEN];
        m.doFinal(out, 0);
        return out;
    }

    private static Decoded refused(Refusal r) {
        return new Decoded(null, r);
    }

    private static byte[] addr16(InetAddress a) {
        return Arrays.copyOf(a.getAddress(), 16);
    }

    private static boolean allZero(byte[] b, int off) {
        for (int i = off; i < off + 16; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static InetAddress addr(byte[] b, int off, boolean v6) {
        try {
            return InetAddress.getByAddress(Arrays.copyOfRange(b, off, off + (v6 ? 16 : 4)));
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // cannot happen: length is 4 or 16
        }
    }
}
