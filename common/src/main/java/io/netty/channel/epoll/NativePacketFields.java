package io.netty.channel.epoll;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Reads what recvmmsg wrote into a {@link NativeDatagramPacketArray.NativeDatagramPacket} (its JNI
 * code sets these private fields: received length, sender sockaddr, GRO segment size) without
 * {@code newDatagramPacket}, which builds a new {@code InetSocketAddress} and {@code DatagramPacket}
 * per datagram; and writes the recipient sendmmsg reads, without Netty's {@code init}, which
 * copies the address bytes out of the {@code InetAddress} per datagram. The field names are Netty's (4.2.x, the version pinned in the pom); if a Netty
 * upgrade renames one, {@link #AVAILABLE} turns false and mclb keeps Netty's own channel
 * ({@code io.mclb.net.Transports}), so an upgrade costs allocation, never correctness.
 *
 * <p>Static and stateless: safe from any thread; each packet belongs to one loop's array.
 */
final class NativePacketFields {
    /** True when every field below resolved on this Netty. */
    static final boolean AVAILABLE;
    /** Why not, when not (logged once by the transport selection). */
    static final String UNAVAILABLE_CAUSE;

    private static final VarHandle COUNT;
    private static final VarHandle SENDER_ADDR;
    private static final VarHandle SENDER_ADDR_LEN;
    private static final VarHandle SENDER_SCOPE_ID;
    private static final VarHandle SENDER_PORT;
    private static final VarHandle RECIPIENT_ADDR;
    private static final VarHandle RECIPIENT_ADDR_LEN;
    private static final VarHandle RECIPIENT_SCOPE_ID;
    private static final VarHandle RECIPIENT_PORT;
    private static final VarHandle SEGMENT_SIZE;

    static {
        VarHandle[] h = new VarHandle[10];
        String cause = null;
        try {
            Class<?> c = NativeDatagramPacketArray.NativeDatagramPacket.class;
            MethodHandles.Lookup l = MethodHandles.privateLookupIn(c, MethodHandles.lookup());
            h[0] = l.findVarHandle(c, "count", int.class);
            h[1] = l.findVarHandle(c, "senderAddr", byte[].class);
            h[2] = l.findVarHandle(c, "senderAddrLen", int.class);
            h[3] = l.findVarHandle(c, "senderScopeId", int.class);
            h[4] = l.findVarHandle(c, "senderPort", int.class);
            h[5] = l.findVarHandle(c, "recipientAddr", byte[].class);
            h[6] = l.findVarHandle(c, "recipientAddrLen", int.class);
            h[7] = l.findVarHandle(c, "recipientScopeId", int.class);
            h[8] = l.findVarHandle(c, "recipientPort", int.class);
            h[9] = l.findVarHandle(c, "segmentSize", int.class);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            cause = "Netty's NativeDatagramPacket fields not found: " + e;
            h = new VarHandle[10];
        }
        COUNT = h[0];
        SENDER_ADDR = h[1];
        SENDER_ADDR_LEN = h[2];
        SENDER_SCOPE_ID = h[3];
        SENDER_PORT = h[4];
        RECIPIENT_ADDR = h[5];
        RECIPIENT_ADDR_LEN = h[6];
        RECIPIENT_SCOPE_ID = h[7];
        RECIPIENT_PORT = h[8];
        SEGMENT_SIZE = h[9];
        AVAILABLE = cause == null;
        UNAVAILABLE_CAUSE = cause;
    }

    private NativePacketFields() {
    }

    /** Bytes received into this packet's iovec. */
    static int length(NativeDatagramPacketArray.NativeDatagramPacket p) {
        return (int) COUNT.get(p);
    }

    /** The sender's address bytes: 4 (IPv4) or 16 (IPv6) valid, see {@link #senderAddrLen}. */
    static byte[] senderAddr(NativeDatagramPacketArray.NativeDatagramPacket p) {
        return (byte[]) SENDER_ADDR.get(p);
    }

    static int senderAddrLen(NativeDatagramPacketArray.NativeDatagramPacket p) {
        return (int) SENDER_ADDR_LEN.get(p);
    }

    static int senderScopeId(NativeDatagramPacketArray.NativeDatagramPacket p) {
        return (int) SENDER_SCOPE_ID.get(p);
    }

    /** The sender's port, or -1 when recvmmsg filled no sender. */
    static int senderPort(NativeDatagramPacketArray.NativeDatagramPacket p) {
        return (int) SENDER_PORT.get(p);
    }

    /** The original destination (IP_RECVORIGDSTADDR), 0 bytes when the socket does not ask for it. */
    static int recipientAddrLen(NativeDatagramPacketArray.NativeDatagramPacket p) {
        return (int) RECIPIENT_ADDR_LEN.get(p);
    }

    static byte[] recipientAddr(NativeDatagramPacketArray.NativeDatagramPacket p) {
        return (byte[]) RECIPIENT_ADDR.get(p);
    }

    static int recipientScopeId(NativeDatagramPacketArray.NativeDatagramPacket p) {
        return (int) RECIPIENT_SCOPE_ID.get(p);
    }

    static int recipientPort(NativeDatagramPacketArray.NativeDatagramPacket p) {
        return (int) RECIPIENT_PORT.get(p);
    }

    /**
     * Sets the recipient sendmmsg sends {@code p} to: the 16 address bytes (IPv4 as ::ffff:a.b.c.d,
     * as Netty writes it), the IPv6 scope and the port.
     */
    static void recipient(NativeDatagramPacketArray.NativeDatagramPacket p, byte[] addr16, int scopeId, int port) {
        System.arraycopy(addr16, 0, recipientAddr(p), 0, 16);
        RECIPIENT_ADDR_LEN.set(p, 16);
        RECIPIENT_SCOPE_ID.set(p, scopeId);
        RECIPIENT_PORT.set(p, port);
    }

    /** The recipient as an IPv4 address {@code ipv4} (big-endian int) mapped into IPv6, with {@code port}. */
    static void recipientIpv4(NativeDatagramPacketArray.NativeDatagramPacket p, int ipv4, int port) {
        byte[] a = recipientAddr(p);
        for (int i = 0; i < 10; i++) {
            a[i] = 0;
        }
        a[10] = (byte) 0xff;
        a[11] = (byte) 0xff;
        a[12] = (byte) (ipv4 >>> 24);
        a[13] = (byte) (ipv4 >>> 16);
        a[14] = (byte) (ipv4 >>> 8);
        a[15] = (byte) ipv4;
        RECIPIENT_ADDR_LEN.set(p, 16);
        RECIPIENT_SCOPE_ID.set(p, 0);
        RECIPIENT_PORT.set(p, port);
    }

    /** UDP_GRO: the size of each coalesced segment, 0 when the kernel delivered one datagram. */
    static int segmentSize(NativeDatagramPacketArray.NativeDatagramPacket p) {
        return (int) SEGMENT_SIZE.get(p);
    }
}
