package io.mclb.sticky;

import java.util.ArrayList;
import java.util.List;

/**
 * Which subscriber identity a sticky entry is keyed by: the first byte of every {@link StickyKey}.
 * An open set, like {@link io.mclb.net.DropReason}: the engine declares {@link #CLIENT_IP}, each
 * protocol module declares its own kinds once, in a constant (GTP IMSI, RADIUS identities, ASN
 * MSID), so a new module adds a kind without editing the engine.
 *
 * <p>The code is persisted in {@code sticky.dat} and replicated to the HA standby, so a kind's code
 * never changes; declaring the same code twice with the same label returns the first declaration
 * (a test may declare a kind its module owns), with another label it is a programming error.
 */
public final class StickyKind {
    /** How {@code show sticky} prints an identity of this kind. */
    public enum Format {
        /** 4 or 16 octets: an IPv4 or IPv6 address. */
        ADDRESS,
        /** 3GPP TS 29.060 7.7.2 TBCD digits, low nibble first, 0xF filler (IMSI, MSISDN). */
        TBCD,
        /** Printable text, hex otherwise. */
        TEXT
    }

    private static final StickyKind[] BY_CODE = new StickyKind[256];
    private static final List<StickyKind> ALL = new ArrayList<>();

    /** Client-IP stickiness of plain UDP virtual servers ({@code sticky S [netmask M]}). */
    public static final StickyKind CLIENT_IP = of(1, "client-ip", Format.ADDRESS);

    private final int code;
    private final String label;
    private final Format format;

    private StickyKind(int code, String label, Format format) {
        this.code = code;
        this.label = label;
        this.format = format;
    }

    /**
     * Declares a kind (call from a static initialiser, not per packet).
     *
     * @param code  1..255, persisted: never reuse or renumber one
     * @param label the {@code table} label of {@code mclb_sticky_entries} and of {@code show sticky TABLE}
     */
    public static synchronized StickyKind of(int code, String label, Format format) {
        if (code < 1 || code > 255) {
            throw new IllegalArgumentException("sticky kind code " + code + " not in 1..255");
        }
        StickyKind k = BY_CODE[code];
        if (k != null) {
            if (!k.label.equals(label)) {
                throw new IllegalStateException("sticky kind code " + code + " is " + k.label + ", not " + label);
            }
            return k;
        }
        for (StickyKind other : ALL) {
            if (other.label.equals(label)) {
                throw new IllegalStateException("sticky kind " + label + " already has code " + other.code);
            }
        }
        k = new StickyKind(code, label, format);
        BY_CODE[code] = k;
        ALL.add(k);
        return k;
    }

    /** Every kind declared so far, in declaration order. */
    public static synchronized List<StickyKind> all() {
        return List.copyOf(ALL);
    }

    /** The kind of a key's first byte, or null when no module declared it. */
    public static StickyKind ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /** The kind with this label, or null. */
    public static synchronized StickyKind ofLabel(String label) {
        for (StickyKind k : ALL) {
            if (k.label.equals(label)) {
                return k;
            }
        }
        return null;
    }

    public int code() {
        return code;
    }

    /** The {@code table} label of {@code mclb_sticky_entries}. */
    public String label() {
        return label;
    }

    public Format format() {
        return format;
    }

    @Override
    public String toString() {
        return label;
    }
}
