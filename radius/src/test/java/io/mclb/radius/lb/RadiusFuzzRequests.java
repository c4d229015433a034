package io.mclb.radius.lb;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The seeded request stream of {@link RadiusServiceFuzzTest}: valid requests, requests mutated
 * then re-signed (most), requests broken after signing, retransmissions, raw garbage. It lives
 * apart from the test so that the test reads as the storm and its invariants; what the stream
 * sends is fixed by the seed alone (every draw comes from the one {@link SplittableRandom}, in
 * the same order), so a failing window can be replayed. How a request gets broken is
 * {@link RadiusFuzzMutations}.
 */
final class RadiusFuzzRequests {
    /** One datagram to send: from which NAS socket, to which virtual port. */
    record Shot(int socket, int port, byte[] wire) {
    }

    /** A request before serialisation: what the mutations work on. */
    static final class Draft {
        int socket;
        int port;
        int code;
        int id;
        final byte[] auth = new byte[16];
        List<byte[]> attrs = new ArrayList<>();
        String secret;
        int padding;
        /** Length field written before signing (attributes beyond it become padding), or -1. */
        int lengthField = -1;
    }

    private final SplittableRandom rnd;
    private final int vauth;
    private final int vacct;
    private final int vack;
    private final String nasSecret;
    private final String ackSecret;
    private final RadiusFuzzMutations mutations;
    private final List<Shot> recent = new ArrayList<>();
    private int n;

    /**
     * {@code ports}: RADIUS-AUTH, RADIUS-ACCT, RADIUS-ACK. {@code nasSecret} is the secret of the
     * client line that matches socket 0; {@code ackSecret} the local-ack key that socket 1 mostly uses.
     */
    RadiusFuzzRequests(SplittableRandom rnd, int[] ports, String nasSecret, String ackSecret) {
        this.rnd = rnd;
        this.vauth = ports[0];
        this.vacct = ports[1];
        this.vack = ports[2];
        this.nasSecret = nasSecret;
        this.ackSecret = ackSecret;
        this.mutations = new RadiusFuzzMutations(rnd); // the same random: one seed, one sequence of draws
    }

    Shot next() {
        n++;
        int roll = rnd.nextInt(100);
        Shot s;
        if (roll < 3 && !recent.isEmpty()) {
            s = recent.get(rnd.nextInt(recent.size())); // a retransmission, byte for byte
        } else if (roll < 8) {
            s = garbage();
        } else {
            Draft d = base();
            if (roll < 30) {
                s = new Shot(d.socket, d.port, serialiseAndSign(d));
            } else if (roll < 90) {
                int m = 1 + rnd.nextInt(3);
                for (int i = 0; i < m; i++) {
                    mutations.mutate(d);
                }
                s = new Shot(d.socket, d.port, serialiseAndSign(d));
            } else {
                if (rnd.nextBoolean()) {
                    mutations.mutate(d);
                }
                s = new Shot(d.socket, d.port, mutations.breakAfterSigning(serialiseAndSign(d)));
            }
        }
        recent.add(s);
        if (recent.size() > 16) {
            recent.remove(0);
        }
        return s;
    }

    private Shot garbage() {
        int socket = rnd.nextInt(10) == 0 ? 1 : 0;
        int port = pick(vauth, vacct, vack);
        int kind = rnd.nextInt(20);
        byte[] w;
        if (kind == 0) {
            w = new byte[9001 + rnd.nextInt(3000)]; // beyond what the engine relays
            rnd.nextBytes(w);
        } else if (kind == 1) {
            w = new byte[0];
        } else if (kind < 8) {
            w = new byte[1 + rnd.nextInt(40)];
            rnd.nextBytes(w);
        } else {
            w = new byte[20 + rnd.nextInt(300)];
            rnd.nextBytes(w);
            w[0] = (byte) pick(1, 4, 12, 40, 43, 2, 5);
            int len = rnd.nextInt(4) == 0 ? rnd.nextInt(65536) : w.length;
            w[2] = (byte) (len >> 8);
            w[3] = (byte) len;
        }
        return new Shot(socket, port, w);
    }

    private int pick(int... v) {
        return FuzzDraws.pick(rnd, v);
    }

    private byte[] random(int len) {
        return FuzzDraws.bytes(rnd, len);
    }

    // -- valid requests --

    private Draft base() {
        Draft d = new Draft();
        d.socket = rnd.nextInt(100) < 8 ? 1 : 0;
        if (d.socket == 0) {
            d.secret = rnd.nextInt(100) < 3 ? "not-the-secret" : nasSecret;
        } else {
            d.secret = rnd.nextInt(100) < 70 ? ackSecret : nasSecret;
        }
        d.id = rnd.nextInt(256);
        rnd.nextBytes(d.auth);
        int s = rnd.nextInt(48);
        int kind = rnd.nextInt(100);
        if (kind < 42) {
            accessRequest(d, s);
            d.port = weighted(vauth, 80, vacct, 10, vack);
        } else if (kind < 84) {
            accountingRequest(d, s);
            d.port = weighted(vacct, 60, vack, 30, vauth);
        } else if (kind < 94) {
            d.code = 12;
            if (rnd.nextInt(100) < 30) {
                d.attrs.add(RadiusWire.attr(32, ascii("nas-" + s)));
            }
            if (rnd.nextInt(100) < 92) {
                d.attrs.add(rnd.nextInt(d.attrs.size() + 1), RadiusWire.attr(80, new byte[16]));
            }
            d.port = pick(vauth, vacct, vack);
        } else {
            d.code = rnd.nextBoolean() ? 43 : 40; // CoA / Disconnect: computed authenticator, forwarded
            d.attrs.add(RadiusWire.attr(1, ascii(user(s))));
            d.attrs.add(RadiusWire.attr(31, ascii(csid(s))));
            if (rnd.nextInt(100) < 30) {
                d.attrs.add(RadiusWire.attr(80, new byte[16]));
            }
            d.port = pick(vauth, vacct, vack);
        }
        return d;
    }

    private int weighted(int a, int pa, int b, int pb, int c) {
        int r = rnd.nextInt(100);
        return r < pa ? a : r < pa + pb ? b : c;
    }

    private void accessRequest(Draft d, int s) {
        d.code = 1;
        d.attrs.add(RadiusWire.attr(1, ascii(user(s))));
        byte[] pw = ascii("pw-" + s + "-" + "x".repeat(rnd.nextInt(40)));
        d.attrs.add(RadiusWire.attr(2, RadiusWire.hidePassword(pw, d.auth, d.secret)));
        if (rnd.nextInt(100) < 85) {
            d.attrs.add(RadiusWire.attr(31, ascii(csid(s))));
        }
        d.attrs.add(RadiusWire.attr(4, new byte[] {127, 0, 0, 1}));
        d.attrs.add(RadiusWire.attr(5, RadiusWire.int32(rnd.nextInt(1 << 16))));
        if (rnd.nextInt(100) < 60) {
            d.attrs.add(RadiusWire.vsa(9, RadiusWire.sub(1, ascii("subscriber:corr-id=" + s + "-" + n))));
        }
        if (rnd.nextInt(100) < 30) {
            d.attrs.add(RadiusWire.vsa(10415, RadiusWire.sub(1, ascii(imsi(s)))));
        }
        if (rnd.nextInt(100) < 45) {
            d.attrs.add(RadiusWire.attr(80, new byte[16]));
        }
        if (rnd.nextInt(100) < 5) {
            d.attrs.add(RadiusWire.attr(79, random(1 + rnd.nextInt(60))));
            if (rnd.nextInt(100) < 70) {
                d.attrs.add(RadiusWire.attr(80, new byte[16]));
            }
        }
    }

    private void accountingRequest(Draft d, int s) {
        d.code = 4;
        int r = rnd.nextInt(100);
        int status = r < 40 ? 1 : r < 65 ? 3 : r < 90 ? 2 : r < 95 ? 7 : 8;
        d.attrs.add(RadiusWire.attr(1, ascii(user(s))));
        d.attrs.add(RadiusWire.attr(40, RadiusWire.int32(status)));
        if (rnd.nextInt(100) < 90) {
            d.attrs.add(RadiusWire.attr(31, ascii(csid(s))));
        }
        if (status <= 3 && rnd.nextInt(100) < 85) {
            d.attrs.add(RadiusWire.attr(8, framed(s)));
        }
        d.attrs.add(RadiusWire.attr(44, ascii("sess-" + s)));
        d.attrs.add(RadiusWire.attr(4, new byte[] {127, 0, 0, 1}));
        if (rnd.nextInt(100) < 30) {
            d.attrs.add(RadiusWire.vsa(10415, RadiusWire.sub(1, ascii(imsi(s)))));
        }
        if (rnd.nextInt(100) < 15) {
            d.attrs.add(RadiusWire.attr(80, new byte[16]));
        }
    }

    private static String user(int s) {
        return "sub" + s + "@apn";
    }

    private static String csid(int s) {
        return String.format("4917%08d", s);
    }

    private static String imsi(int s) {
        return String.format("26201%010d", s);
    }

    /** Even subscribers match the route map (10.9/16, next hop 127.0.0.6), odd ones do not. */
    static byte[] framed(int s) {
        return new byte[] {10, (byte) (s % 2 == 0 ? 9 : 8), (byte) s, 1};
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    // -- serialisation and signing --

    private byte[] serialiseAndSign(Draft d) {
        byte[] attrs = RadiusWire.concat(d.attrs);
        int len = 20 + attrs.length;
        byte[] w = new byte[len + d.padding];
        w[0] = (byte) d.code;
        w[1] = (byte) d.id;
        int field = d.lengthField >= 0 ? d.lengthField : Math.min(len, 65535);
        w[2] = (byte) (field >> 8);
        w[3] = (byte) field;
        System.arraycopy(d.auth, 0, w, 4, 16);
        System.arraycopy(attrs, 0, w, 20, attrs.length);
        for (int i = len; i < w.length; i++) {
            w[i] = (byte) rnd.nextInt(256);
        }
        RadiusWire.signRequest(w, d.secret);
        return w;
    }
}
