package io.mclb.route;

/**
 * {@code mclb advertise table N [protocol P]}: advertised virtual addresses are host routes in
 * kernel table N with protocol P (default 4, "static"), which a routing daemon (BIRD's kernel
 * protocol with {@code learn}, FRR's {@code redistribute table}) announces. Without this line
 * nothing is installed; serviceability is still shown and exported.
 */
public record RouteTable(long table, int protocol) {
    public static final int DEFAULT_PROTOCOL = 4;
}
