package io.mclb.sticky;

/** Which subscriber identity a sticky entry is keyed by; the first byte of every {@link StickyKey}. */
public enum StickyKind {
    CLIENT_IP(1, "client-ip"),
    GTP_IMSI(2, "gtp-imsi"),
    RADIUS_FRAMED_IP(3, "radius-framed-ip"),
    RADIUS_CALLING_STATION_ID(4, "radius-calling-station-id"),
    RADIUS_USERNAME(5, "radius-username"),
    ASN_MSID(6, "asn-msid");

    private static final StickyKind[] BY_CODE = new StickyKind[8];

    static {
        for (StickyKind k : values()) {
            BY_CODE[k.code] = k;
        }
    }

    private final int code;
    private final String label;

    StickyKind(int code, String label) {
        this.code = code;
        this.label = label;
    }

    public int code() {
        return code;
    }

    /** The {@code table} label of {@code mclb_sticky_entries}. */
    public String label() {
        return label;
    }

    public static StickyKind ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
