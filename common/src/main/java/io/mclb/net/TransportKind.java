package io.mclb.net;

import java.util.Locale;

/**
 * The I/O transport of every event loop ({@code mclb transport auto|epoll|io_uring|nio}): Netty's
 * native epoll, its native io_uring, or the JDK's NIO selector. {@code auto} takes the best one this
 * host offers ({@link Transports#use}).
 */
public enum TransportKind {
    AUTO("auto"), EPOLL("epoll"), IO_URING("io_uring"), NIO("nio");

    private final String keyword;

    TransportKind(String keyword) {
        this.keyword = keyword;
    }

    /** The config word. */
    public String keyword() {
        return keyword;
    }

    /** The kind named {@code word}, or null. */
    public static TransportKind of(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        for (TransportKind k : values()) {
            if (k.keyword.equals(w)) {
                return k;
            }
        }
        return null;
    }

    /** The allowed words, for error messages: {@code auto|epoll|io_uring|nio}. */
    public static String allowed() {
        StringBuilder b = new StringBuilder();
        for (TransportKind k : values()) {
            b.append(b.length() == 0 ? "" : "|").append(k.keyword);
        }
        return b.toString();
    }
}
