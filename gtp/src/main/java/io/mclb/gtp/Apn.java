package io.mclb.gtp;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Access Point Name in its wire form (v1 IE 131, v2 IE 71): DNS label-length form, each label
 * preceded by its length octet, no trailing zero ("internet" = {@code 08 69 6E 74 65 72 6E 65 74}).
 * Compare on the data path against a pre-encoded form with {@link #equalsWire}; text only for tools.
 */
public final class Apn {
    private Apn() {
    }

    /** Label-length form of a dotted APN ("internet", "ims.mnc001.mcc001.gprs"); config time. */
    public static byte[] encode(String dotted) {
        String[] labels = dotted.split("\\.", -1);
        int n = 0;
        for (String l : labels) {
            int len = l.getBytes(StandardCharsets.US_ASCII).length;
            if (len == 0 || len > 63) {
                throw new IllegalArgumentException("APN label must be 1..63 octets: " + dotted);
            }
            n += 1 + len;
        }
        byte[] out = new byte[n];
        int p = 0;
        for (String l : labels) {
            byte[] b = l.getBytes(StandardCharsets.US_ASCII);
            out[p++] = (byte) b.length;
            System.arraycopy(b, 0, out, p, b.length);
            p += b.length;
        }
        return out;
    }

    /** Whether the {@code len} octets at {@code offset} equal {@code wire}, ASCII case-insensitively (APNs are DNS names). */
    public static boolean equalsWire(ByteBuf buf, int offset, int len, byte[] wire) {
        if (len != wire.length) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            int a = buf.getByte(offset + i);
            int b = wire[i];
            if (a != b && toLower(a) != toLower(b)) {
                return false;
            }
        }
        return true;
    }

    private static int toLower(int c) {
        return c >= 'A' && c <= 'Z' ? c + 32 : c;
    }

    /** Dotted text of a wire APN; a malformed label structure is rendered as far as it parses (tools, allocates). */
    public static String toDotted(ByteBuf buf, int offset, int len) {
        StringBuilder sb = new StringBuilder();
        int p = offset;
        int end = offset + len;
        while (p < end) {
            int l = buf.getByte(p) & 0xFF;
            p++;
            if (p + l > end) {
                break;
            }
            if (sb.length() > 0) {
                sb.append('.');
            }
            sb.append(buf.toString(p, l, StandardCharsets.US_ASCII));
            p += l;
        }
        return sb.toString();
    }
}
