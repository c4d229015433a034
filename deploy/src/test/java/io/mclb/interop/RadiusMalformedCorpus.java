package io.mclb.interop;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * RADIUS requests from one NAS for {@link GtpNothingMalformedForwardedInteropIT}'s RADIUS virtual
 * server: every third a well-formed Access- or Accounting-Request (User-Name {@code valid-N}), the
 * rest broken the ways Wireshark calls malformed (a Vendor-Specific without room for its
 * Vendor-Id, 3GPP and WiMAX sub-attributes shorter than their header or running past the VSA)
 * or the RFCs forbid (a 5-octet Framed-IP-Address, a 2-octet Acct-Status-Type, an empty
 * User-Name), plus random octet changes. Accounting-Requests are signed with the NAS secret after
 * they are broken (RFC 2866 section 3), so mclb's attribute checks are what refuses them, not the
 * authenticator.
 */
final class RadiusMalformedCorpus {
    static final String NAS_SECRET = "nas-secret";

    /** One request and whether it was built well formed on purpose. */
    record Datagram(byte[] bytes, boolean valid, String user) {
    }

    private final Random rnd;

    private RadiusMalformedCorpus(long seed) {
        rnd = new Random(seed);
    }

    static List<Datagram> of(long seed, int n) {
        RadiusMalformedCorpus c = new RadiusMalformedCorpus(seed);
        List<Datagram> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(c.next(i));
        }
        return out;
    }

    private Datagram next(int i) {
        boolean acct = i % 2 == 1;
        String user = (i % 3 == 0 ? "valid-" : "broken-") + i;
        List<byte[]> attrs = new ArrayList<>();
        attrs.add(attr(1, user.getBytes(StandardCharsets.US_ASCII)));
        attrs.add(attr(31, ("49170" + (1000000 + i)).getBytes(StandardCharsets.US_ASCII)));
        attrs.add(attr(4, new byte[] {127, 0, 0, 20}));
        if (acct) {
            attrs.add(attr(40, new byte[] {0, 0, 0, 1}));
            attrs.add(attr(8, new byte[] {10, 9, (byte) (i >> 8), (byte) i}));
        }
        attrs.add(attr(26, concat(new byte[] {0, 0, 0x28, (byte) 0xAF}, sub(1, "262010000000001"))));
        if (i % 3 == 0) {
            return new Datagram(packet(acct, i, attrs), true, user);
        }
        switch (rnd.nextInt(9)) {
            case 0 -> attrs.add(attr(26, new byte[] {0, 0}));
            case 1 -> attrs.add(attr(26, new byte[] {0, 0, 0x28, (byte) 0xAF, 1, 1}));
            case 2 -> attrs.add(attr(26, new byte[] {0, 0, 0x28, (byte) 0xAF, 1, 9, 'a', 'b', 'c'}));
            case 3 -> attrs.add(attr(26, new byte[] {0, 0, 0x60, (byte) 0xB5, 46, 2, 0}));
            case 4 -> attrs.add(attr(8, new byte[] {10, 0, 0, 1, 0}));
            case 5 -> attrs.add(attr(40, new byte[] {0, 1}));
            case 6 -> attrs.set(0, attr(1, new byte[0]));
            case 7 -> attrs.add(attr(26, new byte[] {0, 0, 0, 9, 1, (byte) (2 + rnd.nextInt(3)), 'x'}));
            default -> {
                byte[] p = packet(acct, i, attrs);
                p[20 + rnd.nextInt(p.length - 20)] = (byte) rnd.nextInt(256);
                return new Datagram(acct ? sign(p) : p, false, user);
            }
        }
        return new Datagram(packet(acct, i, attrs), false, user);
    }

    private byte[] packet(boolean acct, int id, List<byte[]> attrs) {
        byte[] body = concat(attrs.toArray(new byte[0][]));
        byte[] p = new byte[20 + body.length];
        p[0] = (byte) (acct ? 4 : 1);
        p[1] = (byte) id;
        p[2] = (byte) (p.length >> 8);
        p[3] = (byte) p.length;
        if (!acct) {
            byte[] auth = new byte[16];
            rnd.nextBytes(auth);
            System.arraycopy(auth, 0, p, 4, 16);
        }
        System.arraycopy(body, 0, p, 20, body.length);
        return acct ? sign(p) : p;
    }

    /** RFC 2866 section 3: MD5(Code + Identifier + Length + 16 zero octets + Attributes + Secret). */
    private static byte[] sign(byte[] p) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            byte[] zeroed = p.clone();
            Arrays.fill(zeroed, 4, 20, (byte) 0);
            md5.update(zeroed);
            md5.update(NAS_SECRET.getBytes(StandardCharsets.US_ASCII));
            System.arraycopy(md5.digest(), 0, p, 4, 16);
            return p;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] attr(int type, byte[] value) {
        byte[] a = new byte[2 + value.length];
        a[0] = (byte) type;
        a[1] = (byte) a.length;
        System.arraycopy(value, 0, a, 2, value.length);
        return a;
    }

    private static byte[] sub(int type, String value) {
        return attr(type, value.getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] b : parts) {
            out.writeBytes(b);
        }
        return out.toByteArray();
    }
}
