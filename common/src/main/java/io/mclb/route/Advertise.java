package io.mclb.route;

/**
 * A virtual server's {@code advertise [active]} / {@code no advertise} (IOS SLB route health
 * injection; advertising is on by default): with {@code active} its address is advertised only
 * while it is serviceable (a real can take work), without it whenever it serves.
 */
public record Advertise(boolean enabled, boolean active) {
    /** IOS's default: advertised when in service. */
    public static final Advertise DEFAULT = new Advertise(true, false);
}
