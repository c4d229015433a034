package io.mclb.gtp;

import io.mclb.gtp.GtpTestMessages.Bytes;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.mclb.gtp.GtpTestMessages.hex;

/**
 * A seeded corpus of GTP requests for a {@code gtp-inspect} virtual server (issue 14 item 5): the
 * spec violations the issue names, written on purpose (a 16-digit IMSI in 8 octets without filler,
 * filler in the middle, APN labels past the IE, an F-TEID whose V4/V6 flags announce more than its
 * length, NSAPI/EBI outside 5..15, IEs shorter than their type's minimum, extension headers of
 * the wrong length, length fields that do not match the datagram) and random mutations of valid
 * v0/v1/v2 creates ({@link FuzzBytes}), with valid creates of distinct IMSIs in between so a test
 * can prove that what is well formed still gets through. Shared by the service test and the
 * tshark interop test (gtp test-jar).
 */
public final class GtpMalformedCorpus {
    /** Fixed, so a run is repeatable. */
    public static final long SEED = 0x6774707374726963L;

    /** One datagram of the corpus; {@code valid} when it was built well formed on purpose. */
    public record Datagram(byte[] bytes, boolean valid) {
        /** GTPv0 goes to the 3386-style virtual server, v1/v2 to the 2123 one. */
        public boolean v0() {
            return bytes.length > 0 && (bytes[0] & 0xE0) == 0;
        }
    }

    private final Random rnd;
    private int nextImsi;

    private GtpMalformedCorpus(long seed) {
        this.rnd = new Random(seed);
    }

    /** {@code n} datagrams from {@code seed}: every fourth a valid create, the rest broken. */
    public static List<Datagram> of(long seed, int n) {
        GtpMalformedCorpus c = new GtpMalformedCorpus(seed);
        List<Datagram> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(i % 4 == 0 ? new Datagram(c.validCreate(i), true) : new Datagram(c.broken(i), false));
        }
        return out;
    }

    private String imsi() {
        return String.format("26201%010d", ++nextImsi);
    }

    private byte[] validCreate(int i) {
        return switch (i / 4 % 3) {
            case 0 -> v1Create(GtpTestMessages.tbcd8(imsi()), i, 5);
            case 1 -> v2Create(GtpTestMessages.tbcd(imsi()), i, APN, FTEID, 5);
            default -> v0Create(imsi(), i);
        };
    }

    private static final byte[] APN = GtpTestMessages.APN_INTERNET;
    private static final byte[] FTEID = hex("8a 00001000 7f000014");

    private byte[] broken(int i) {
        int seq = i & 0xFFFF;
        return switch (rnd.nextInt(16)) {
            // the case: 16 digits in 8 octets, no filler
            case 0 -> rnd.nextBoolean() ? v1Create(hex("62 02 10 00 00 00 10 32"), seq, 5)
                    : v2Create(hex("62 02 10 00 00 00 10 32"), seq, APN, FTEID, 5);
            // a filler before the end, a non-BCD digit, an empty or 9-octet v2 IMSI
            case 1 -> v1Create(hex("62 02 F1 00 00 00 10 F2"), seq, 5);
            case 2 -> v2Create(switch (rnd.nextInt(4)) {
                case 0 -> hex("62 02 F1 00 00 00 10 F2");
                case 1 -> hex("62 B2 10 00 00 00 10 F2");
                case 2 -> new byte[0];
                default -> hex("62 02 10 00 00 00 10 32 F4");
            }, seq, APN, FTEID, 5);
            // APN: a label past the IE, an empty label, longer than 100 octets
            case 3 -> v2Create(GtpTestMessages.tbcd(imsi()), seq, switch (rnd.nextInt(3)) {
                case 0 -> hex("09 69 6E 74 65 72 6E 65 74");
                case 1 -> hex("08 69 6E 74 65 72 6E 65 74 00");
                default -> longApn();
            }, FTEID, 5);
            case 4 -> v1CreateWithApn(hex("0a 69 6E 74 65 72 6E 65 74"), seq);
            // F-TEID: V6 announced in 9 octets; neither flag; shorter than 5
            case 5 -> v2Create(GtpTestMessages.tbcd(imsi()), seq, APN, switch (rnd.nextInt(3)) {
                case 0 -> hex("ca 00001000 7f000014");
                case 1 -> hex("0a 00001000 7f000014");
                default -> hex("8a 000010");
            }, 5);
            // NSAPI / EBI outside 5..15
            case 6 -> v1Create(GtpTestMessages.tbcd8(imsi()), seq, rnd.nextInt(5) | (rnd.nextBoolean() ? 0x30 : 0));
            case 7 -> v2Create(GtpTestMessages.tbcd(imsi()), seq, APN, FTEID, rnd.nextInt(5));
            // v2 IEs shorter than their type allows: RAT Type, Recovery, EBI with length 0
            case 8 -> GtpTestMessages.v2(32, 0, seq, new Bytes().ie2(1, 0, GtpTestMessages.tbcd(imsi()))
                    .ie2(new int[] {82, 3, 73}[rnd.nextInt(3)], 0, new byte[0]).ie2(87, 0, FTEID).ie2(71, 0, APN).bytes());
            // v1 extension header of length 0 or 2 where the type has 1, or running past the message
            case 9 -> v1WithExtension(seq, new int[] {0, 2, 9}[rnd.nextInt(3)]);
            // header length field one off the datagram, either way
            case 10 -> lengthOff(rnd.nextBoolean() ? v1Create(GtpTestMessages.tbcd8(imsi()), seq, 5)
                    : v2Create(GtpTestMessages.tbcd(imsi()), seq, APN, FTEID, 5));
            // v1 MSISDN and GSN Address of impossible lengths
            case 11 -> v1CreateWithTail(seq, rnd.nextBoolean() ? new Bytes().tlv(134, new byte[0]).bytes()
                    : new Bytes().tlv(133, hex("7f0000")).bytes());
            default -> FuzzBytes.mutate(seedFor(seq), rnd, 0, 1, 2, 3, 12, 13, 14, 15, 16, 20, 21, 22, 23, 24, 30, 40);
        };
    }

    private byte[] seedFor(int seq) {
        return switch (rnd.nextInt(3)) {
            case 0 -> v1Create(GtpTestMessages.tbcd8(imsi()), seq, 5);
            case 1 -> v2Create(GtpTestMessages.tbcd(imsi()), seq, APN, FTEID, 5);
            default -> v0Create(imsi(), seq);
        };
    }

    private static byte[] longApn() {
        Bytes b = new Bytes();
        for (int i = 0; i < 11; i++) {
            b.u8(9).hex("6162636465666768 69"); // 11 x 10 = 110 octets
        }
        return b.bytes();
    }

    private static byte[] lengthOff(byte[] m) {
        int len = ((m[2] & 0xFF) << 8 | (m[3] & 0xFF)) - 1;
        m[2] = (byte) (len >>> 8);
        m[3] = (byte) len;
        return m;
    }

    /** v1 Create PDP Context Request as sgsnemu sends it, with the given IMSI octets and NSAPI octet. */
    public static byte[] v1Create(byte[] imsi8, int seq, int nsapi) {
        byte[] ies = GtpTestMessages.v1CreateRequestIes(imsi8);
        // v1CreateRequestIes writes NSAPI 5 (type 20) after TEID-C: patch the value octet
        for (int p = 0; p < ies.length - 1; p++) {
            if (ies[p] == 20 && ies[p - 5] == 17) {
                ies[p + 1] = (byte) nsapi;
                break;
            }
        }
        return GtpTestMessages.v1(16, 0, seq & 0xFFFF, ies);
    }

    private byte[] v1CreateWithApn(byte[] apn, int seq) {
        Bytes b = new Bytes().u8(2).raw(GtpTestMessages.tbcd8(imsi())).u8(14).u8(0).u8(15).u8(1).u8(16).u32(1)
                .u8(17).u32(1).u8(20).u8(5).tlv(128, hex("f121")).tlv(131, apn).tlv(133, hex("7f00000a"))
                .tlv(133, hex("7f00000b"));
        return GtpTestMessages.v1(16, 0, seq, b.bytes());
    }

    private byte[] v1CreateWithTail(int seq, byte[] tail) {
        byte[] ies = new Bytes().u8(2).raw(GtpTestMessages.tbcd8(imsi())).u8(14).u8(0).u8(15).u8(1).u8(16).u32(1)
                .u8(17).u32(1).u8(20).u8(5).tlv(128, hex("f121")).tlv(131, APN).raw(tail).bytes();
        return GtpTestMessages.v1(16, 0, seq, ies);
    }

    /** v1 create with E = 1 and one extension header (type 0x40, UDP Port: length 1) of {@code extLength} units. */
    private byte[] v1WithExtension(int seq, int extLength) {
        byte[] ies = GtpTestMessages.v1CreateRequestIes(GtpTestMessages.tbcd8(imsi()));
        Bytes ext = new Bytes().u8(extLength);
        for (int i = 0; i < Math.max(0, extLength * 4 - 2); i++) {
            ext.u8(0x08);
        }
        if (extLength > 0) {
            ext.u8(0); // next extension header type: none
        }
        byte[] e = extLength > 2 ? java.util.Arrays.copyOf(ext.bytes(), 3) : ext.bytes();
        byte[] body = new Bytes().u16(seq).u8(0).u8(0x40).raw(e).raw(extLength > 2 ? new byte[0] : ies).bytes();
        return new Bytes().u8(0x36).u8(16).u16(4 + body.length).u32(0).raw(body).bytes();
    }

    /** v2 Create Session Request (T = 1, TEID 0) with the given IMSI, APN, sender F-TEID value and bearer EBI. */
    public static byte[] v2Create(byte[] imsi, int seq, byte[] apn, byte[] fteid, int ebi) {
        byte[] bearer = new Bytes().ie2(73, 0, new byte[] {(byte) ebi}).bytes();
        byte[] ies = new Bytes().ie2(1, 0, imsi).ie2(82, 0, hex("06")).ie2(87, 0, fteid).ie2(71, 0, apn)
                .ie2(93, 0, bearer).bytes();
        return GtpTestMessages.v2(32, 0, seq & 0xFFFFFF, ies);
    }

    /** sgsnemu-style v0 Create with the TID in osmo-ggsn's layout for {@code imsi}, NSAPI 0. */
    public static byte[] v0Create(String imsi, int seq) {
        byte[] base = GtpTestMessages.v0CreateRequest();
        long tid = Long.reverseBytes(Tbcd.encodeRaw(imsi) & ~0xF0L);
        java.nio.ByteBuffer.wrap(base).putShort(4, (short) seq).putLong(12, tid);
        return base;
    }
}
