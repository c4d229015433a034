package io.mclb.net;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a virtual address can receive traffic here. Listeners bind with IP_FREEBIND (an HA
 * standby binds before it owns its address), so a mistyped VIP would bind without complaint and
 * never see a datagram: a virtual server outside an HA group is refused unless its address is
 * this host's or the operator allowed non-local binds ({@code net.ipv4.ip_nonlocal_bind=1}).
 */
public final class LocalAddresses {

    private LocalAddresses() {
    }

    /** Null when {@code a} can be served here, else why not (with what to do). */
    public static String whyNotLocal(InetAddress a) {
        if (a.isAnyLocalAddress() || a.isLoopbackAddress() || nonlocalBindAllowed(a)) {
            return null;
        }
        try {
            if (NetworkInterface.getByInetAddress(a) != null) {
                return null;
            }
        } catch (SocketException e) {
            return null; // cannot tell: let the bind decide rather than refuse a good address
        }
        String v = a instanceof Inet6Address ? "ipv6" : "ipv4";
        return "not an address of this host (use ip nonlocal bind or add it: 'sysctl -w net." + v
                + ".ip_nonlocal_bind=1' or 'ip address add " + a.getHostAddress() + " dev IFACE')";
    }

    private static boolean nonlocalBindAllowed(InetAddress a) {
        Path p = Path.of("/proc/sys/net", a instanceof Inet6Address ? "ipv6" : "ipv4", "ip_nonlocal_bind");
        try {
            return Files.readString(p).trim().equals("1");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
