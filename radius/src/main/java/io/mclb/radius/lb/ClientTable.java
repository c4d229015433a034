package io.mclb.radius.lb;

import io.mclb.radius.codec.RadiusSecret;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The NAS clients of {@code mclb radius client IP MASK key 0|7 SECRET}: longest prefix wins.
 * Immutable after construction, shared by every event loop. IPv4 lookups read the address as
 * an int ({@link Inet4Address#hashCode()} is the address) and allocate nothing.
 */
final class ClientTable {
    private record Entry(byte[] network, int prefix, int v4, int v4mask, RadiusSecret secret) {
    }

    private final Entry[] v4;
    private final Entry[] v6;

    ClientTable(List<RadiusLines.Client> lines) {
        List<Entry> a = new ArrayList<>();
        List<Entry> b = new ArrayList<>();
        for (RadiusLines.Client l : lines) {
            byte[] n = l.network().getAddress();
            if (n.length == 4) {
                int mask = l.prefix() == 0 ? 0 : -1 << (32 - l.prefix());
                a.add(new Entry(n, l.prefix(), toInt(n) & mask, mask, l.secret()));
            } else {
                b.add(new Entry(n, l.prefix(), 0, 0, l.secret()));
            }
        }
        Comparator<Entry> longestFirst = Comparator.comparingInt(e -> -e.prefix);
        a.sort(longestFirst);
        b.sort(longestFirst);
        v4 = a.toArray(Entry[]::new);
        v6 = b.toArray(Entry[]::new);
    }

    boolean isEmpty() {
        return v4.length == 0 && v6.length == 0;
    }

    /** The secret of the most specific client line covering {@code a}, or null (unknown client). */
    RadiusSecret secretOf(InetAddress a) {
        if (a instanceof Inet4Address) {
            int ip = a.hashCode();
            for (Entry e : v4) {
                if ((ip & e.v4mask) == e.v4) {
                    return e.secret;
                }
            }
            return null;
        }
        byte[] b = a.getAddress(); // IPv6 NAS: one copy per request, accepted
        for (Entry e : v6) {
            if (matches(b, e.network, e.prefix)) {
                return e.secret;
            }
        }
        return null;
    }

    private static boolean matches(byte[] a, byte[] n, int prefix) {
        if (a.length != n.length) {
            return false;
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (a[i] != n[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = 0xff << (8 - rest);
        return (a[full] & mask) == (n[full] & mask);
    }

    static int toInt(byte[] b) {
        return ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
    }
}
