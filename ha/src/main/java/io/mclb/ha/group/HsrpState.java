package io.mclb.ha.group;

/**
 * The states of an HSRP group as RFC 2281 section 5 names them. HSRP uses three numberings for
 * the same states (v1 wire bits, v2 wire values, CISCO-HSRP-MIB), so each is kept here as a table
 * and never reused for another (reference/hsrp.md section 4).
 */
public enum HsrpState {
    /** Not running yet: just configured, or the interface is down. */
    INITIAL(0, 1, 1),
    /** The virtual address is not known; waiting for a hello from the active router. */
    LEARN(1, 2, 2),
    /** The virtual address is known; neither active nor standby; monitors hellos, sends none. */
    LISTEN(2, 3, 3),
    /** Sends hellos and takes part in the election of the standby (and then the active). */
    SPEAK(4, 4, 4),
    /** Next in line: takes over when the active router's hellos stop for the hold time. */
    STANDBY(8, 5, 5),
    /** Owns the virtual address and serves it. */
    ACTIVE(16, 6, 6);

    private static final HsrpState[] BY_V2 = new HsrpState[7];

    static {
        for (HsrpState s : values()) {
            BY_V2[s.v2Code] = s;
        }
    }

    /** HSRP v1 wire code (bit-style). */
    public final int v1Code;
    /** HSRP v2 wire code; also what mclb's own hello carries. */
    public final int v2Code;
    /** CISCO-HSRP-MIB cHsrpGrpStandbyState value. */
    public final int mibCode;

    HsrpState(int v1Code, int v2Code, int mibCode) {
        this.v1Code = v1Code;
        this.v2Code = v2Code;
        this.mibCode = mibCode;
    }

    /** The state with this v2 code, or null (0 = Disabled and anything else are not states mclb takes). */
    public static HsrpState fromV2(int code) {
        return code >= 1 && code < BY_V2.length ? BY_V2[code] : null;
    }

    /** The state name as IOS prints it ({@code Active}, {@code Standby}...). */
    public String label() {
        return name().charAt(0) + name().substring(1).toLowerCase(java.util.Locale.ROOT);
    }
}
