package io.mclb.radius.lb;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fake AAAs' side of {@link RadiusServiceFuzzTest}: what every fake does with what mclb
 * forwards. It checks the request as a real would (well formed, verifies with the real's
 * secret), then answers correctly (about half), mutated but correctly signed (most of the rest),
 * or not at all. One per fake: its random is confined to the fake's thread. What it finds goes
 * to the {@link Findings} the test shares among all fakes and asserts on.
 */
final class RadiusFuzzResponder implements FakeAaa.Responder {
    /** Reply-Message value that marks a mutated answer, so the test can count those mclb forwarded. */
    private static final String MARKER = "fuzz-mutated";

    /**
     * What the responders report to the test; shared by all fakes, so thread-safe.
     *
     * @param realSideFailures   what a fake found wrong in a request mclb forwarded (the test asserts none)
     * @param injectedSeen       Accounting-Requests that reached a real with a Cisco VSA: the stream never
     *                           sends one, so mclb injected it
     * @param mutatedAnswersSent answers sent mutated (marked: see {@link RadiusFuzzResponder#marked})
     */
    record Findings(Queue<String> realSideFailures, AtomicInteger injectedSeen, AtomicInteger mutatedAnswersSent) {
        Findings() {
            this(new ConcurrentLinkedQueue<>(), new AtomicInteger(), new AtomicInteger());
        }
    }

    private final SplittableRandom rnd;
    private final Findings findings;

    RadiusFuzzResponder(long seed, Findings findings) {
        this.rnd = new SplittableRandom(seed);
        this.findings = findings;
    }

    private int pick(int... v) {
        return FuzzDraws.pick(rnd, v);
    }

    private byte[] random(int len) {
        return FuzzDraws.bytes(rnd, len);
    }

    @Override
    public List<byte[]> answer(byte[] req, String secret) {
        String bad = checkRequest(req, secret);
        if (bad != null) {
            findings.realSideFailures().add(bad + ": " + RadiusWire.hex(req));
            return List.of();
        }
        int reqCode = req[0] & 0xff;
        if (reqCode == 4 && hasVendor(req, 9)) {
            findings.injectedSeen().incrementAndGet(); // the stream never puts Cisco VSAs in accounting
        }
        int roll = rnd.nextInt(100);
        if (roll < 5) {
            return List.of();
        }
        byte[] reqAuth = Arrays.copyOfRange(req, 4, 20);
        int code = switch (reqCode) {
            case 1 -> pick(2, 2, 2, 3, 11);
            case 40 -> 41;
            case 43 -> 44;
            default -> 5;
        };
        List<byte[]> attrs = new ArrayList<>();
        if (code == 2 && rnd.nextBoolean()) {
            attrs.add(RadiusWire.attr(8, new byte[] {10, (byte) pick(8, 9), (byte) rnd.nextInt(256), 1}));
        }
        if (code == 11) {
            attrs.add(RadiusWire.attr(24, random(1 + rnd.nextInt(30))));
        }
        if (rnd.nextInt(100) < 30) {
            attrs.add(RadiusWire.attr(80, new byte[16]));
        }
        if (roll < 55) {
            return List.of(response(code, req[1] & 0xff, attrs, reqCode, reqAuth, secret, 0));
        }
        findings.mutatedAnswersSent().incrementAndGet();
        attrs.add(0, RadiusWire.attr(18, MARKER.getBytes(StandardCharsets.ISO_8859_1)));
        int id = req[1] & 0xff;
        int padding = 0;
        String signWith = secret;
        int post = -1;
        boolean twice = false;
        for (int m = 1 + rnd.nextInt(2); m > 0; m--) {
            switch (rnd.nextInt(14)) {
                case 0 -> attrs.add(rnd.nextInt(attrs.size() + 1), RadiusWire.attr(8, random(pick(0, 1, 3, 4, 5, 8))));
                case 1 -> attrs.add(rnd.nextInt(attrs.size() + 1),
                        RadiusWire.attr(8, pick(0, 1) == 0 ? new byte[4] : new byte[] {-1, -1, -1, -1}));
                case 2 -> attrs.add(rnd.nextInt(attrs.size() + 1), rnd.nextBoolean()
                        ? new byte[] {(byte) rnd.nextInt(256), (byte) rnd.nextInt(2)}
                        : new byte[] {(byte) pick(8, 26, 80), (byte) 200, 1});
                case 3 -> {
                    int room = pick(4096, 4096, 4097, 3000) - 20 - RadiusWire.concat(attrs).length;
                    while (room >= 2) {
                        int l = Math.min(room, 2 + rnd.nextInt(40));
                        if (room - l == 1) {
                            l = l == 2 ? 3 : l - 1;
                        }
                        attrs.add(RadiusWire.attr(pick(18, 25, 26), random(l - 2)));
                        room -= l;
                    }
                }
                case 4 -> attrs.add(rnd.nextInt(attrs.size() + 1), switch (rnd.nextInt(5)) {
                    case 0 -> RadiusWire.vsa(311, RadiusWire.sub(pick(16, 17),
                            random(pick(18, 34, 242, 0, 1, 19, 243))));
                    case 1 -> RadiusWire.attr(69, random(pick(19, 35, 3, 2, 20, 250)));
                    case 2 -> RadiusWire.attr(26, random(rnd.nextInt(10)));
                    case 3 -> RadiusWire.vsa(10415, RadiusWire.sub(1, random(pick(0, 1, 200))));
                    default -> RadiusWire.attr(26, RadiusWire.concat(List.of(RadiusWire.int32(9),
                            new byte[] {1, (byte) pick(0, 1, 100), 'x'})));
                });
                case 5 -> {
                    switch (rnd.nextInt(3)) {
                        case 0 -> {
                            attrs.add(RadiusWire.attr(80, new byte[16]));
                            attrs.add(RadiusWire.attr(80, new byte[16]));
                        }
                        case 1 -> attrs.add(RadiusWire.attr(80, random(pick(0, 8, 17))));
                        default -> attrs.add(0, RadiusWire.attr(80, new byte[16]));
                    }
                }
                case 6 -> code = pick(2, 3, 5, 11, 41, 44, 45, 1, 4, 12, 13, 0, 99, 255);
                case 7 -> id = rnd.nextInt(256);
                case 8 -> padding = 1 + rnd.nextInt(200);
                case 9 -> post = rnd.nextInt(3);
                case 10 -> signWith = "wrong-" + secret;
                case 11 -> twice = true;
                case 12 -> {
                    for (int i = rnd.nextInt(6); i >= 0; i--) {
                        attrs.add(RadiusWire.attr(pick(24, 25, 18), random(253)));
                    }
                }
                default -> attrs.add(RadiusWire.attr(pick(0, 255, 97, 50, 27), random(rnd.nextInt(30))));
            }
        }
        byte[] w = response(code, id, attrs, reqCode, reqAuth, signWith, padding);
        if (post == 0) {
            w = Arrays.copyOf(w, rnd.nextInt(20)); // too short to carry an identifier
        } else if (post == 1) {
            w = Arrays.copyOf(w, 20 + rnd.nextInt(Math.max(1, w.length - 20)));
        } else if (post == 2) {
            w[w.length > 20 ? 20 + rnd.nextInt(w.length - 20) : 5] ^= 0x5a;
        }
        if (twice) {
            byte[] valid = response(code == 2 || code == 3 || code == 5 || code == 11 ? code : 5,
                    req[1] & 0xff, List.of(), reqCode, reqAuth, secret, 0);
            return rnd.nextBoolean() ? List.of(valid, w) : List.of(w, valid, valid);
        }
        return List.of(w);
    }

    private byte[] response(int code, int id, List<byte[]> attrs, int reqCode, byte[] reqAuth, String secret,
                            int padding) {
        byte[] a = RadiusWire.concat(attrs);
        int len = 20 + a.length;
        byte[] w = new byte[len + padding];
        w[0] = (byte) code;
        w[1] = (byte) id;
        w[2] = (byte) (Math.min(len, 65535) >> 8);
        w[3] = (byte) Math.min(len, 65535);
        System.arraycopy(a, 0, w, 20, a.length);
        for (int i = len; i < w.length; i++) {
            w[i] = (byte) rnd.nextInt(256);
        }
        RadiusWire.signResponse(w, reqCode, reqAuth, secret);
        return w;
    }

    /** Null when {@code req} is what a real may receive from a re-signing proxy; else why not. */
    private String checkRequest(byte[] req, String secret) {
        if (req.length < 20) {
            return "shorter than a header";
        }
        int len = RadiusWire.u16(req, 2);
        if (len != req.length || len > 4096) {
            return "Length " + len + " for " + req.length + " octets";
        }
        int code = req[0] & 0xff;
        if (code != 1 && code != 4 && code != 40 && code != 43) {
            return "code " + code + " forwarded";
        }
        if (!RadiusWire.wellFormed(req, len)) {
            return "attributes do not fit";
        }
        if (RadiusWire.computedAuthenticator(code)) {
            byte[] want = RadiusWire.md5(Arrays.copyOfRange(req, 0, 4), new byte[16], Arrays.copyOfRange(req, 20, len),
                    secret.getBytes(StandardCharsets.UTF_8));
            if (!Arrays.equals(want, Arrays.copyOfRange(req, 4, 20))) {
                return "Request Authenticator does not verify";
            }
        }
        int ma = RadiusWire.maValue(req, len);
        if (ma >= 0 && !Arrays.equals(RadiusWire.ma(req, len, ma,
                RadiusWire.computedAuthenticator(code) ? new byte[16] : null, secret),
                Arrays.copyOfRange(req, ma, ma + 16))) {
            return "Message-Authenticator does not verify";
        }
        return null;
    }

    private boolean hasVendor(byte[] w, long vendor) {
        int len = RadiusWire.u16(w, 2);
        for (int i = 20; i + 2 <= len; i += w[i + 1] & 0xff) {
            if ((w[i] & 0xff) == 26 && (w[i + 1] & 0xff) >= 6
                    && (RadiusWire.u16(w, i + 2) << 16 | RadiusWire.u16(w, i + 4)) == vendor) {
                return true;
            }
        }
        return false;
    }

    /** True when {@code w}, a well-formed answer, carries the Reply-Message this class puts in every mutated answer. */
    static boolean marked(byte[] w) {
        int len = RadiusWire.u16(w, 2);
        for (int i = 20; i + 2 <= len; i += w[i + 1] & 0xff) {
            int alen = w[i + 1] & 0xff;
            if (alen < 2) {
                return false;
            }
            if ((w[i] & 0xff) == 18 && new String(w, i + 2, alen - 2, StandardCharsets.ISO_8859_1).equals(MARKER)) {
                return true;
            }
        }
        return false;
    }
}
