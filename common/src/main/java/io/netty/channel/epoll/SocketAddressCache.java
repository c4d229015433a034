package io.netty.channel.epoll;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;

/**
 * The {@link InetSocketAddress} of a raw sockaddr (address bytes, port, IPv6 scope) as recvmmsg
 * reports it, from a direct-mapped table keyed by those raw values: a peer seen before costs a
 * hash and a compare, no object. A signalling VIP hears a bounded set of peers (SGSNs, NASes,
 * reals), so they stay; a miss (first datagram of a peer, or a collision with another peer)
 * builds the address as Netty would and replaces the slot. The addresses handed out are
 * immutable, so a relay may keep them (flows, transactions) as it kept Netty's.
 *
 * <p>Confined to one event loop (one table per loop thread, {@link ReceiveScratch}).
 */
final class SocketAddressCache {
    /** Slots per loop: 4,096 peers (about 100 KiB with their addresses). */
    static final int SLOTS = 4096;

    private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private final long[] high = new long[SLOTS];
    private final long[] low = new long[SLOTS];
    /** Port (low 16 bits) and address length (bits 16..23); 0 marks an empty slot (length is never 0). */
    private final int[] portAndLength = new int[SLOTS];
    private final int[] scope = new int[SLOTS];
    private final InetSocketAddress[] address = new InetSocketAddress[SLOTS];
    private long misses;

    /**
     * The address of ({@code addr}[0..len), {@code port}, {@code scopeId}), or null when len is
     * neither 4 nor 16 (no sockaddr: the relays count such a datagram as an internal error).
     */
    InetSocketAddress of(byte[] addr, int len, int port, int scopeId) {
        if (len == 4) {
            return of((int) INT_BE.get(addr, 0) & 0xffffffffL, 0, 4, port, scopeId);
        }
        if (len == 16) {
            return of((long) LONG_BE.get(addr, 0), (long) LONG_BE.get(addr, 8), 16, port, scopeId);
        }
        return null;
    }

    /**
     * The address of an IPv4 ({@code len} 4: {@code hi} the address as an unsigned big-endian int,
     * {@code lo} 0) or IPv6 ({@code len} 16: the two big-endian halves) peer, as recvmmsg wrote its
     * sockaddr.
     */
    InetSocketAddress of(long hi, long lo, int len, int port, int scopeId) {
        int key = (port & 0xffff) | (len << 16);
        int slot = slot(hi, lo, key, scopeId);
        InetSocketAddress a = address[slot];
        if (a != null && portAndLength[slot] == key && high[slot] == hi && low[slot] == lo && scope[slot] == scopeId) {
            return a;
        }
        misses++;
        a = build(hi, lo, len, port, scopeId);
        high[slot] = hi;
        low[slot] = lo;
        portAndLength[slot] = key;
        scope[slot] = scopeId;
        address[slot] = a;
        return a;
    }

    /** Lookups that built a new address (tests: repeated peers add none). */
    long misses() {
        return misses;
    }

    private static int slot(long hi, long lo, int key, int scopeId) {
        long h = hi * 0x9E3779B97F4A7C15L ^ lo * 0xC2B2AE3D27D4EB4FL ^ (key * 0x165667B1L) ^ scopeId;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 32;
        return (int) h & (SLOTS - 1);
    }

    private static InetSocketAddress build(long hi, long lo, int len, int port, int scopeId) {
        InetAddress ip;
        try {
            if (len == 4) {
                byte[] v4 = new byte[4];
                INT_BE.set(v4, 0, (int) hi);
                ip = InetAddress.getByAddress(v4);
            } else {
                byte[] v6 = new byte[16];
                LONG_BE.set(v6, 0, hi);
                LONG_BE.set(v6, 8, lo);
                // scope 0 is "none": left unset, so the address prints and compares as the JDK's own (no "%0")
                ip = Inet6Address.getByAddress(null, v6, scopeId == 0 ? -1 : scopeId);
            }
        } catch (UnknownHostException e) {
            throw new IllegalStateException("4 or 16 address bytes refused", e); // cannot happen: lengths checked
        }
        return new InetSocketAddress(ip, port);
    }
}
