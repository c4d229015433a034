package io.mclb.probe;

/**
 * The JNI helper of the tcp probe's half-open check ({@code src/main/c/mclb_tcpraw.c}, built into
 * {@code META-INF/native/libmclb-tcpraw-ARCH.so} when the build machine has gcc): Java cannot open
 * raw sockets, so this opens one and Netty's epoll transport does the rest over its descriptor.
 */
final class TcpRawNative {
    /** Why raw TCP sockets cannot be opened in this process, or null when the helper is loaded. */
    static final String UNAVAILABLE = load();

    private TcpRawNative() {
    }

    /**
     * A non-blocking raw TCP socket (CAP_NET_RAW) reading only SYN-ACKs and resets to local port
     * {@code port}; IPv6 with the kernel computing the checksum.
     *
     * @return the descriptor, or -errno
     */
    static native int open0(boolean ipv6, int port);

    private static String load() {
        String why = io.mclb.net.JniLibrary.load("tcpraw");
        return why == null ? null : "raw TCP helper: " + why;
    }
}
