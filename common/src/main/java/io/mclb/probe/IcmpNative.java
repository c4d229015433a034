package io.mclb.probe;

/**
 * The JNI helper of the ping probe ({@code src/main/c/mclb_icmp.c}, built into
 * {@code META-INF/native/libmclb-icmp-ARCH.so} when the build machine has gcc): Java cannot open
 * ICMP sockets, so this opens one and Netty's epoll transport does the rest over its descriptor.
 * Loaded once, from the class path (extracted to a temporary file when it sits in a jar).
 */
final class IcmpNative {
    /** Why ICMP sockets cannot be opened in this process, or null when the helper is loaded. */
    static final String UNAVAILABLE = load();

    private IcmpNative() {
    }

    /**
     * A non-blocking ICMP (or ICMPv6) socket: a ping datagram socket ({@code raw} false, allowed by
     * {@code net.ipv4.ping_group_range}) or a raw one filtered to echo replies with identifier
     * {@code ident} (CAP_NET_RAW; a datagram socket's identifier is the kernel's choice).
     *
     * @return the descriptor, or -errno
     */
    static native int open0(boolean ipv6, boolean raw, int ident);

    private static String load() {
        String why = io.mclb.net.JniLibrary.load("icmp");
        return why == null ? null : "ICMP helper: " + why;
    }
}
