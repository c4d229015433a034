package io.mclb.radius.lb;

import io.mclb.radius.lb.RadiusFuzzRequests.Draft;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * How {@link RadiusFuzzRequests} breaks a request: attribute-level mutations of a {@link Draft}
 * before it is signed (so that most broken requests still verify and reach the deep paths:
 * VSA parsing, hidden attributes, Message-Authenticator handling, framed-IP learning, oversize),
 * and damage done after signing. Apart from the stream so that each reads on its own; it draws
 * from the stream's own random, so the seed still fixes every datagram.
 */
final class RadiusFuzzMutations {
    private final SplittableRandom rnd;

    RadiusFuzzMutations(SplittableRandom rnd) {
        this.rnd = rnd;
    }

    private int pick(int... v) {
        return FuzzDraws.pick(rnd, v);
    }

    private byte[] random(int len) {
        return FuzzDraws.bytes(rnd, len);
    }

    // -- before signing: the request is then signed as if it were valid --

    private void insert(Draft d, byte[] attr) {
        d.attrs.add(rnd.nextInt(d.attrs.size() + 1), attr);
    }

    private void replaceOrAdd(Draft d, int type, byte[] attr) {
        for (int i = 0; i < d.attrs.size(); i++) {
            byte[] a = d.attrs.get(i);
            if (a.length >= 1 && (a[0] & 0xff) == type) {
                d.attrs.set(i, attr);
                return;
            }
        }
        insert(d, attr);
    }

    private void removeAll(Draft d, int type) {
        d.attrs.removeIf(a -> a.length >= 1 && (a[0] & 0xff) == type);
    }

    private int size(Draft d) {
        int n = 20;
        for (byte[] a : d.attrs) {
            n += a.length;
        }
        return n;
    }

    void mutate(Draft d) {
        switch (rnd.nextInt(18)) {
            case 0 -> insert(d, new byte[] {(byte) rnd.nextInt(256), (byte) rnd.nextInt(2)}); // length 0 or 1
            case 1 -> {
                if (rnd.nextBoolean()) { // the last attribute claims more than is left
                    d.attrs.add(new byte[] {(byte) pick(1, 8, 26, 31, 80), (byte) (4 + rnd.nextInt(250)), 0});
                } else {
                    d.attrs.add(new byte[] {(byte) rnd.nextInt(256)}); // a dangling octet
                }
            }
            case 2 -> fill(d, pick(600, 2000, 4096, 4096, 4097 + rnd.nextInt(200), 8990));
            case 3 -> insert(d, oddVsa(d.code == 1));
            case 4 -> {
                switch (rnd.nextInt(4)) {
                    case 0 -> {
                        insert(d, RadiusWire.attr(80, new byte[16]));
                        insert(d, RadiusWire.attr(80, new byte[16]));
                    }
                    case 1 -> insert(d, RadiusWire.attr(80, random(pick(0, 1, 8, 15, 17, 32))));
                    case 2 -> {
                        removeAll(d, 80);
                        d.attrs.add(0, RadiusWire.attr(80, new byte[16]));
                    }
                    default -> removeAll(d, 80);
                }
            }
            case 5 -> {
                switch (rnd.nextInt(4)) {
                    case 0 -> replaceOrAdd(d, 8, RadiusWire.attr(8, random(pick(0, 1, 3, 5, 8, 16))));
                    case 1 -> {
                        insert(d, RadiusWire.attr(8, RadiusFuzzRequests.framed(rnd.nextInt(48))));
                        insert(d, RadiusWire.attr(8, RadiusFuzzRequests.framed(rnd.nextInt(48))));
                    }
                    case 2 -> replaceOrAdd(d, 8, RadiusWire.attr(8, pick(0, 1) == 0 ? new byte[4]
                            : new byte[] {-1, -1, -1, -1}));
                    default -> replaceOrAdd(d, 8, RadiusWire.attr(8, new byte[] {10, 9, (byte) rnd.nextInt(256),
                            (byte) rnd.nextInt(256)}));
                }
            }
            case 6 -> {
                byte[] pw = rnd.nextInt(4) == 0
                        ? RadiusWire.hidePassword(random(113 + rnd.nextInt(16)), d.auth, d.secret) // 128 octets
                        : random(pick(0, 1, 15, 17, 31, 33, 127, 129, 144, 253));
                if (rnd.nextBoolean()) {
                    replaceOrAdd(d, 2, RadiusWire.attr(2, pw));
                } else {
                    insert(d, RadiusWire.attr(2, pw));
                }
            }
            case 7 -> {
                int cipher = pick(0, 1, 15, 16, 17, 32, 100, 240, 250);
                byte[] v = new byte[3 + cipher];
                rnd.nextBytes(v);
                insert(d, RadiusWire.attr(69, Arrays.copyOf(v, Math.min(v.length, 253))));
            }
            case 8 -> {
                byte[] v = rnd.nextBoolean() ? random(pick(0, 1, 3, 5))
                        : RadiusWire.int32(pick(0, 1, 2, 3, 7, 8, 0x7fffffff, -1));
                if (rnd.nextBoolean()) {
                    replaceOrAdd(d, 40, RadiusWire.attr(40, v));
                } else {
                    insert(d, RadiusWire.attr(40, v));
                }
            }
            case 9 -> {
                int type = pick(1, 31);
                switch (rnd.nextInt(3)) {
                    case 0 -> replaceOrAdd(d, type, RadiusWire.attr(type, new byte[0]));
                    case 1 -> replaceOrAdd(d, type, RadiusWire.attr(type, random(253)));
                    default -> removeAll(d, type);
                }
            }
            case 10 -> {
                insert(d, RadiusWire.attr(79, random(rnd.nextInt(254))));
                if (rnd.nextBoolean()) {
                    removeAll(d, 80);
                }
            }
            case 11 -> d.padding = 1 + rnd.nextInt(300);
            case 12 -> d.code = pick(2, 3, 5, 11, 13, 0, 99, 255, 40, 43, 12, 1, 4);
            case 13 -> d.lengthField = 20 + rnd.nextInt(Math.max(1, size(d) - 19));
            case 14 -> java.util.Collections.shuffle(d.attrs, new java.util.Random(rnd.nextLong()));
            case 15 -> {
                for (int i = rnd.nextInt(5); i >= 0; i--) {
                    insert(d, RadiusWire.attr(pick(24, 25, 33, 18), random(253)));
                }
            }
            case 16 -> insert(d, RadiusWire.attr(pick(0, 255, 26, 97, 50), random(rnd.nextInt(254))));
            default -> {
                if (rnd.nextBoolean()) {
                    d.attrs.clear();
                } else {
                    removeAll(d, 80);
                }
            }
        }
    }

    /** Appends attributes up to {@code target} octets in all (beyond 4096 the Length field is invalid). */
    private void fill(Draft d, int target) {
        int remaining = target - size(d);
        while (remaining >= 2) {
            int len;
            byte[] a;
            if (d.code == 1 && rnd.nextInt(4) == 0 && remaining >= 8) { // Cisco VSAs: a big injection
                len = Math.min(remaining, 8 + rnd.nextInt(40));
                if (remaining - len == 1) {
                    len--;
                }
                a = RadiusWire.vsa(9, RadiusWire.sub(1, random(len - 8)));
            } else {
                len = Math.min(remaining, rnd.nextInt(3) == 0 ? 2 : 2 + rnd.nextInt(60));
                if (remaining - len == 1) {
                    len = len == 2 ? 3 : len - 1;
                }
                a = RadiusWire.attr(pick(18, 25, 33, 30), random(len - 2));
            }
            d.attrs.add(a);
            remaining -= a.length;
        }
    }

    private byte[] oddVsa(boolean access) {
        switch (rnd.nextInt(access ? 12 : 10)) {
            case 0 -> {
                return new byte[] {26, 2};
            }
            case 1 -> {
                return RadiusWire.attr(26, random(1 + rnd.nextInt(4))); // shorter than a vendor id
            }
            case 2 -> {
                return RadiusWire.attr(26, RadiusWire.concat(List.of(RadiusWire.int32(10415),
                        new byte[] {1, (byte) pick(0, 1)})));
            }
            case 3 -> { // sub-attribute running past its VSA
                return RadiusWire.attr(26, RadiusWire.concat(List.of(RadiusWire.int32(10415),
                        new byte[] {1, (byte) 200, 50, 50})));
            }
            case 4 -> {
                return RadiusWire.vsa(10415, RadiusWire.sub(1, random(pick(0, 1, 200, 247))));
            }
            case 5 -> { // WiMAX: type, length, continuation
                return RadiusWire.attr(26, RadiusWire.concat(List.of(RadiusWire.int32(24757),
                        new byte[] {1, (byte) pick(3, 2, 10), 0, 1, 2})));
            }
            case 6 -> { // MS-MPPE-Send/Recv-Key: salt (2) then 16..240 octets in blocks of 16
                return RadiusWire.vsa(311, RadiusWire.sub(pick(16, 17),
                        random(pick(0, 1, 2, 3, 17, 18, 19, 34, 35, 242, 243))));
            }
            case 7 -> {
                return RadiusWire.vsa(311, RadiusWire.concat(List.of(RadiusWire.sub(16, random(18)),
                        RadiusWire.sub(16, random(19)), RadiusWire.sub(17, random(34)))));
            }
            case 8 -> {
                return RadiusWire.attr(26, RadiusWire.concat(List.of(RadiusWire.int32(pick(0, -1, 5535)),
                        random(rnd.nextInt(249)))));
            }
            case 9 -> { // many sub-attributes in one VSA
                List<byte[]> subs = new ArrayList<>();
                int room = 249;
                while (room >= 2) {
                    int l = Math.min(room, 2 + rnd.nextInt(10));
                    subs.add(RadiusWire.sub(pick(1, 2, 6, 7, 8, 21), random(l - 2)));
                    room -= l;
                }
                return RadiusWire.attr(26, RadiusWire.concat(List.of(RadiusWire.int32(pick(9, 10415, 311)),
                        RadiusWire.concat(subs))));
            }
            case 10 -> { // Cisco: sub-attribute lengths 0, 1, past the end
                return RadiusWire.attr(26, RadiusWire.concat(List.of(RadiusWire.int32(9),
                        new byte[] {1, (byte) pick(0, 1, 100), 'a', 'b'})));
            }
            default -> {
                return RadiusWire.vsa(9, RadiusWire.sub(1, random(247)));
            }
        }
    }

    // -- after signing --

    /** Breaks a signed request in place or returns a shorter copy: a flipped octet, truncation, a wrong Length. */
    byte[] breakAfterSigning(byte[] w) {
        switch (rnd.nextInt(3)) {
            case 0 -> {
                for (int i = 1 + rnd.nextInt(3); i > 0; i--) {
                    w[rnd.nextInt(w.length)] ^= (byte) (1 + rnd.nextInt(255));
                }
                return w;
            }
            case 1 -> {
                return Arrays.copyOf(w, rnd.nextInt(w.length));
            }
            default -> {
                int len = pick(0, 19, w.length + 1 + rnd.nextInt(50), 4097, 65535);
                w[2] = (byte) (len >> 8);
                w[3] = (byte) len;
                return w;
            }
        }
    }
}
