package io.netty.channel.epoll;

import io.mclb.net.JniLibrary;
import io.netty.channel.unix.Errors;
import io.netty.util.internal.PlatformDependent;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * A recvmmsg or sendmmsg message vector in native memory, written and read by Java with plain
 * stores and loads and handed to the kernel by mclb's JNI helper ({@code src/main/c/mclb_mmsg.c}):
 * one syscall per batch and nothing else. Netty's recvmmsg0 also makes a getsockopt per call,
 * clears a 128-byte sockaddr per slot and sets a dozen Java fields per datagram through JNI; its
 * sendmmsg0 reads as many (perf/README.md, "Issue 15: own recvmmsg and sendmmsg").
 *
 * <pre>
 *   headers  capacity x struct mmsghdr (64 bytes: msg_name, msg_namelen, msg_iov, msg_iovlen = 1,
 *            no control messages, msg_flags, msg_len)
 *   iovecs   capacity x struct iovec   (16 bytes: base, length; one per datagram)
 *   names    capacity x 32 bytes       (a sockaddr_in, or a sockaddr_in6 of 28)
 * </pre>
 *
 * Each header points at its own iovec and name once, at construction; a batch writes only the
 * iovecs (and, to send, the names). The offsets are those of LP64 Linux, checked against the C
 * compiler's at load ({@link #AVAILABLE} is false on any difference, and the channel keeps
 * Netty's natives). No control messages: the data path's sockets enable neither UDP_GRO nor
 * IP_RECVORIGDSTADDR ({@link MclbDatagramChannelConfig} offers neither), so there is nothing to
 * receive beside the datagram and its sender.
 *
 * <p>Confined to one event loop; the memory lives as long as the loop thread.
 */
final class MmsgVector {
    /** True when the helper loaded and its ABI is the one below. */
    static final boolean AVAILABLE;
    /** Why not, when not (the start log). */
    static final String UNAVAILABLE_CAUSE;

    private static final int HEADER = 64;
    private static final int NAME = 0;
    private static final int NAME_LEN = 8;
    private static final int IOV = 16;
    private static final int IOV_LEN = 24;
    private static final int LEN = 56;
    private static final int IOVEC = 16;
    private static final int NAME_SLOT = 32;
    private static final int SOCKADDR_IN = 16;
    private static final int SOCKADDR_IN6 = 28;
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;
    private static final boolean BIG_ENDIAN = PlatformDependent.BIG_ENDIAN_NATIVE_ORDER;

    static {
        String why = PlatformDependent.hasUnsafe() ? JniLibrary.load("mmsg") : "no sun.misc.Unsafe";
        if (why == null) {
            why = checkLayout();
        }
        AVAILABLE = why == null;
        UNAVAILABLE_CAUSE = why;
    }

    private final int capacity;
    private final long headers;
    private final long iovecs;
    private final long names;
    private int count;

    MmsgVector(int capacity) {
        if (!AVAILABLE) {
            throw new IllegalStateException(UNAVAILABLE_CAUSE);
        }
        this.capacity = capacity;
        long bytes = (long) capacity * (HEADER + IOVEC + NAME_SLOT);
        headers = PlatformDependent.allocateMemory(bytes);
        PlatformDependent.setMemory(headers, bytes, (byte) 0);
        iovecs = headers + (long) capacity * HEADER;
        names = iovecs + (long) capacity * IOVEC;
        for (int i = 0; i < capacity; i++) {
            long h = header(i);
            PlatformDependent.putLong(h + NAME, name(i));
            PlatformDependent.putLong(h + IOV, iovecs + (long) i * IOVEC);
            PlatformDependent.putLong(h + IOV_LEN, 1);
        }
    }

    /** Frees the native memory (when the loop thread ends); the vector is unusable after. */
    void release() {
        PlatformDependent.freeMemory(headers);
    }

    void clear() {
        count = 0;
    }

    int count() {
        return count;
    }

    /** Adds a slot that receives up to {@code length} bytes at {@code address}; false when full. */
    boolean addReceive(long address, int length) {
        if (count == capacity) {
            return false;
        }
        int i = count++;
        iovec(i, address, length);
        PlatformDependent.putInt(header(i) + NAME_LEN, NAME_SLOT);
        return true;
    }

    /**
     * Adds a datagram of {@code length} bytes at {@code address} to {@code to}:{@code port}; false
     * when full, or for an IPv6 recipient on an IPv4 socket (the caller sends that one the slow way,
     * which reports the error as before). An IPv4 recipient on an IPv6 socket goes as
     * ::ffff:a.b.c.d, as Netty sends it.
     *
     * @param v6 the IPv6 address bytes of {@code to} as two big-endian halves (unused for IPv4)
     */
    boolean addSend(long address, int length, InetAddress to, long v6High, long v6Low, int scopeId, int port,
                    boolean ipv6Socket) {
        if (count == capacity) {
            return false;
        }
        boolean v4 = to instanceof Inet4Address;
        if (!v4 && !ipv6Socket) {
            return false;
        }
        int i = count++;
        iovec(i, address, length);
        long n = name(i);
        if (v4 && !ipv6Socket) {
            PlatformDependent.putShort(n, (short) AF_INET);
            PlatformDependent.putShort(n + 2, network((short) port));
            PlatformDependent.putInt(n + 4, network(to.hashCode())); // Inet4Address.hashCode() is the address
            PlatformDependent.putInt(header(i) + NAME_LEN, SOCKADDR_IN);
            return true;
        }
        PlatformDependent.putShort(n, (short) AF_INET6);
        PlatformDependent.putShort(n + 2, network((short) port));
        PlatformDependent.putInt(n + 4, 0); // flow info
        if (v4) {
            PlatformDependent.putLong(n + 8, 0);
            PlatformDependent.putLong(n + 16, network(0xffff00000000L | (to.hashCode() & 0xffffffffL)));
            PlatformDependent.putInt(n + 24, 0);
        } else {
            PlatformDependent.putLong(n + 8, network(v6High));
            PlatformDependent.putLong(n + 16, network(v6Low));
            PlatformDependent.putInt(n + 24, scopeId);
        }
        PlatformDependent.putInt(header(i) + NAME_LEN, SOCKADDR_IN6);
        return true;
    }

    /** recvmmsg into the slots added: datagrams received, 0 when none was waiting. */
    int receive(int fd) throws IOException {
        int r = recvmmsg0(fd, headers, count);
        return r >= 0 ? r : Errors.ioResult("recvmmsg", r);
    }

    /** sendmmsg of the datagrams added: how many left from the start, 0 when the socket buffer is full. */
    int send(int fd) throws IOException {
        int r = sendmmsg0(fd, headers, count);
        return r >= 0 ? r : Errors.ioResult("sendmmsg", r);
    }

    /** Bytes received into slot {@code i}. */
    int length(int i) {
        return PlatformDependent.getInt(header(i) + LEN);
    }

    /** The sender of slot {@code i} from the loop's {@code cache}; null when recvmmsg filled no IPv4 or IPv6 sockaddr. */
    java.net.InetSocketAddress sender(int i, SocketAddressCache cache) {
        long n = name(i);
        int family = PlatformDependent.getShort(n) & 0xffff;
        int port = network(PlatformDependent.getShort(n + 2)) & 0xffff;
        if (family == AF_INET) {
            return cache.of(network(PlatformDependent.getInt(n + 4)) & 0xffffffffL, 0, 4, port, 0);
        }
        if (family != AF_INET6) {
            return null;
        }
        long hi = network(PlatformDependent.getLong(n + 8));
        long lo = network(PlatformDependent.getLong(n + 16));
        if (hi == 0 && (lo >>> 32) == 0xffffL) {
            return cache.of(lo & 0xffffffffL, 0, 4, port, 0); // ::ffff:a.b.c.d is an IPv4 peer, as Netty reports it
        }
        return cache.of(hi, lo, 16, port, PlatformDependent.getInt(n + 24));
    }

    private long header(int i) {
        return headers + (long) i * HEADER;
    }

    private long name(int i) {
        return names + (long) i * NAME_SLOT;
    }

    private void iovec(int i, long address, int length) {
        long v = iovecs + (long) i * IOVEC;
        PlatformDependent.putLong(v, address);
        PlatformDependent.putLong(v + 8, length);
    }

    private static short network(short v) {
        return BIG_ENDIAN ? v : Short.reverseBytes(v);
    }

    private static int network(int v) {
        return BIG_ENDIAN ? v : Integer.reverseBytes(v);
    }

    private static long network(long v) {
        return BIG_ENDIAN ? v : Long.reverseBytes(v);
    }

    private static String checkLayout() {
        int[] want = {HEADER, NAME, NAME_LEN, IOV, IOV_LEN, 32, 40, 48, LEN, IOVEC, 0, 8, SOCKADDR_IN, 2, 4,
            SOCKADDR_IN6, 8, 24, AF_INET, AF_INET6, 0x20};
        int[] got = new int[want.length];
        try {
            if (layout0(got) != want.length || !java.util.Arrays.equals(got, want)) {
                return "mclb_mmsg ABI differs from the Java layout: " + java.util.Arrays.toString(got);
            }
        } catch (UnsatisfiedLinkError e) {
            return "mclb_mmsg: " + e.getMessage();
        }
        return null;
    }

    private static native int recvmmsg0(int fd, long vector, int count);

    private static native int sendmmsg0(int fd, long vector, int count);

    private static native int layout0(int[] out);
}
