package io.mclb.gtp;

import java.util.Set;

/**
 * An independent, deliberately plain reading of what a GGSN/PGW may receive: a GTPv0/v1/v2 request
 * checked against GSM 09.60, 29.060 and 29.274 (and the rules Wireshark's packet-gtp.c /
 * packet-gtpv2.c / packet-e212.c enforce), written without the production flyweights so a test
 * of the forwarding path does not grade the decoder with itself. {@link #problem} names the
 * first violation, or returns null for a well-formed message.
 */
public final class StrictGtpChecker {
    /** 29.060 section 7.7 TV value lengths (v1; v0 differs on 6, 16, 17, 18). */
    private static final int[] TV_V1 = tv(false);
    private static final int[] TV_V0 = tv(true);
    /** v1 extension header types whose length (in 4-octet units) 29.060 section 6.1 fixes. */
    private static final Set<Integer> ONE_UNIT_EXTENSIONS = Set.of(0x01, 0x02, 0x40, 0xC0);

    private StrictGtpChecker() {
    }

    private static int[] tv(boolean v0) {
        int[] t = new int[128];
        java.util.Arrays.fill(t, -1);
        int[][] l = {{1, 1}, {2, 8}, {3, 6}, {4, 4}, {5, 4}, {8, 1}, {9, 28}, {11, 1}, {12, 3}, {13, 1}, {14, 1},
            {15, 1}, {16, 4}, {17, 4}, {18, 5}, {19, 1}, {20, 1}, {21, 1}, {22, 9}, {23, 1}, {24, 1}, {25, 2},
            {26, 2}, {27, 2}, {28, 2}, {29, 1}, {127, 4}};
        for (int[] e : l) {
            t[e[0]] = e[1];
        }
        if (v0) {
            t[6] = 3;
            t[16] = 2;
            t[17] = 2;
            t[18] = 3;
        }
        return t;
    }

    public static String problem(byte[] m) {
        if (m.length < 1) {
            return "empty";
        }
        return switch ((m[0] & 0xFF) >>> 5) {
            case 0 -> v0(m);
            case 1 -> v1(m);
            case 2 -> v2(m);
            default -> "version " + ((m[0] & 0xFF) >>> 5);
        };
    }

    private static int u8(byte[] m, int p) {
        return m[p] & 0xFF;
    }

    private static int u16(byte[] m, int p) {
        return (u8(m, p) << 8) | u8(m, p + 1);
    }

    private static String v0(byte[] m) {
        if (m.length < 20) {
            return "v0 header truncated";
        }
        if ((m[0] & 0x10) == 0) {
            return "GTP'";
        }
        if (u16(m, 2) != m.length - 20) {
            return "v0 length " + u16(m, 2) + " for " + (m.length - 20) + " octets";
        }
        return v1Ies(m, 20, true);
    }

    private static String v1(byte[] m) {
        if (m.length < 12) {
            return "v1 header truncated";
        }
        int flags = u8(m, 0);
        if ((flags & 0x10) == 0) {
            return "GTP'";
        }
        if ((flags & 0x02) == 0) {
            return "v1 control message without sequence";
        }
        if (u16(m, 2) != m.length - 8) {
            return "v1 length " + u16(m, 2) + " for " + (m.length - 8) + " octets";
        }
        int p = 12;
        int next = (flags & 0x04) != 0 ? u8(m, 11) : 0;
        while (next != 0) {
            if (p >= m.length) {
                return "extension header past the end";
            }
            int units = u8(m, p);
            if (units == 0 || p + units * 4 > m.length) {
                return "extension header length " + units;
            }
            if (ONE_UNIT_EXTENSIONS.contains(next) && units != 1) {
                return "extension header 0x" + Integer.toHexString(next) + " length " + units;
            }
            next = u8(m, p + units * 4 - 1);
            p += units * 4;
        }
        return v1Ies(m, p, false);
    }

    private static String v1Ies(byte[] m, int p, boolean v0) {
        while (p < m.length) {
            int t = u8(m, p);
            int hdr;
            int len;
            if (t < 128) {
                len = (v0 ? TV_V0 : TV_V1)[t];
                if (len < 0) {
                    return "unknown TV " + t;
                }
                hdr = 1;
            } else if (t == 141) {
                if (p + 2 > m.length) {
                    return "IE header past the end";
                }
                len = u8(m, p + 1);
                hdr = 2;
            } else {
                if (p + 3 > m.length) {
                    return "IE header past the end";
                }
                len = u16(m, p + 1);
                hdr = 3;
            }
            int v = p + hdr;
            if (v + len > m.length) {
                return "IE " + t + " past the end";
            }
            String bad = switch (t) {
                case 2 -> imsi(m, v, len, true);
                case 20 -> (u8(m, v) & 0xF0) != 0 || (u8(m, v) & 0x0F) < 5 ? "NSAPI " + u8(m, v) : null;
                case 131 -> apn(m, v, len);
                case 133, 251 -> len == 4 || len == 16 ? null : "address of " + len + " octets";
                case 134 -> len < 1 || len > 9 || (u8(m, v) & 0x80) == 0 ? "MSISDN of " + len + " octets"
                        : digits(m, v + 1, len - 1, false, 1, 15);
                case 128 -> len < 2 ? "End User Address of " + len : null;
                case 135 -> len < 4 ? "QoS of " + len : null;
                case 148, 151 -> len < 1 ? "IE " + t + " empty" : null;
                default -> null;
            };
            if (bad != null) {
                return bad;
            }
            p = v + len;
        }
        return null;
    }

    private static String v2(byte[] m) {
        if (m.length < 8) {
            return "v2 header truncated";
        }
        int flags = u8(m, 0);
        int type = u8(m, 1);
        boolean t = (flags & 0x08) != 0;
        if (t != (type > 3)) {
            return "v2 T flag " + t + " on type " + type;
        }
        if ((flags & 0x10) != 0) {
            return "piggyback on a request";
        }
        int header = t ? 12 : 8;
        if (m.length < header) {
            return "v2 header truncated";
        }
        if (u16(m, 2) != m.length - 4) {
            return "v2 length " + u16(m, 2) + " for " + (m.length - 4) + " octets";
        }
        return v2Ies(m, header, m.length, 0);
    }

    private static String v2Ies(byte[] m, int p, int end, int depth) {
        while (p < end) {
            if (p + 4 > end) {
                return "v2 IE header past the end";
            }
            int t = u8(m, p);
            int len = u16(m, p + 1);
            int v = p + 4;
            if (v + len > end) {
                return "v2 IE " + t + " past the end";
            }
            String bad = switch (t) {
                case 0 -> "reserved IE type 0";
                case 1 -> len == 0 ? "empty IMSI" : imsi(m, v, len, false);
                case 2 -> len < 2 ? "Cause of " + len : null;
                case 3, 82, 99, 128 -> len < 1 ? "IE " + t + " empty" : null;
                case 71 -> apn(m, v, len);
                case 73 -> len < 1 || (u8(m, v) & 0x0F) < 5 || (u8(m, v) & 0xF0) != 0 ? "EBI" : null;
                case 76 -> len == 0 ? "empty MSISDN" : digits(m, v, len, false, 1, 15);
                case 87 -> fteid(m, v, len);
                case 93 -> depth > 0 ? "nested Bearer Context" : v2Ies(m, v, v + len, depth + 1);
                default -> null;
            };
            if (bad != null) {
                return bad;
            }
            p = v + len;
        }
        return null;
    }

    private static String fteid(byte[] m, int v, int len) {
        if (len < 5) {
            return "F-TEID of " + len;
        }
        int f = u8(m, v);
        int need = 5 + ((f & 0x80) != 0 ? 4 : 0) + ((f & 0x40) != 0 ? 16 : 0);
        if ((f & 0xC0) == 0) {
            return "F-TEID without an address";
        }
        return len < need ? "F-TEID flags 0x" + Integer.toHexString(f) + " in " + len + " octets" : null;
    }

    private static String apn(byte[] m, int v, int len) {
        if (len < 1 || len > 100) {
            return "APN of " + len + " octets";
        }
        int p = v;
        while (p < v + len) {
            int l = u8(m, p);
            if (l == 0 || l > 63 || p + 1 + l > v + len) {
                return "APN label " + l;
            }
            p += 1 + l;
        }
        return null;
    }

    /** IMSI: 1..15 TBCD digits 0-9; v1's fixed 8 octets pad with F to the end, v2 has F only as the last high nibble. */
    private static String imsi(byte[] m, int v, int len, boolean padded) {
        if (len > 8) {
            return "IMSI of " + len + " octets";
        }
        return digits(m, v, len, padded, 6, 15); // 23.003 2.2: MCC + MNC + MSIN, at most 15
    }

    private static String digits(byte[] m, int v, int len, boolean padded, int min, int max) {
        int count = 0;
        boolean filler = false;
        for (int i = 0; i < len * 2; i++) {
            int d = i % 2 == 0 ? u8(m, v + i / 2) & 0x0F : u8(m, v + i / 2) >>> 4;
            if (d == 0x0F) {
                if (!padded && i != len * 2 - 1) {
                    return "filler before the last nibble";
                }
                filler = true;
            } else if (filler || d > 9) {
                return "digit 0x" + Integer.toHexString(d);
            } else {
                count++;
            }
        }
        return count < min || count > max ? count + " digits" : null;
    }
}
