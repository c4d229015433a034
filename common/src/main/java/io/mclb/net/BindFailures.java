package io.mclb.net;

import java.net.InetAddress;

/**
 * Turns a failed bind into a sentence naming the socket and what to do, instead of the kernel's
 * bare {@code bind(..) failed: Address already in use}.
 */
public final class BindFailures {

    private BindFailures() {
    }

    /** {@code what} names the socket, e.g. {@code "vserver GGSN-GN: VIP 192.0.2.7 udp 2123"}. */
    public static String explain(String what, InetAddress address, int port, Throwable failure) {
        String m = rootMessage(failure);
        String lower = m.toLowerCase(java.util.Locale.ROOT);
        String why;
        if (lower.contains("address already in use")) {
            why = "port " + port + " is in use by another process (another mclb? 'ss -ulpn sport = :" + port
                    + "' names it)";
        } else if (lower.contains("cannot assign requested address")) {
            why = "not an address of this host (use ip nonlocal bind or add it: 'ip address add "
                    + address.getHostAddress() + " dev IFACE')";
        } else if (lower.contains("permission denied")) {
            why = "ports below 1024 need CAP_NET_BIND_SERVICE (run as root, or with that capability as the"
                    + " packaged systemd unit grants it)";
        } else {
            why = m;
        }
        return what + ": " + why;
    }

    /**
     * {@link #explain} for virtual server {@code vserver}'s UDP port, naming the process that holds
     * it when {@code /proc} tells: "vserver V: VIP A:P is already served by mclb pid N (config FILE)".
     */
    public static String explainVip(String vserver, InetAddress address, int port, Throwable failure) {
        String what = "vserver " + vserver + ": VIP " + address.getHostAddress() + " udp " + port;
        if (rootMessage(failure).toLowerCase(java.util.Locale.ROOT).contains("address already in use")) {
            var owner = PortOwners.udp(new java.net.InetSocketAddress(address, port));
            if (owner.isPresent() && owner.get().mclb()) {
                return "vserver " + vserver + ": VIP " + address.getHostAddress() + ":" + port
                        + " is already served by " + owner.get();
            }
            if (owner.isPresent()) {
                return what + ": port " + port + " is in use by another process (" + owner.get() + ")";
            }
        }
        return explain(what, address, port, failure);
    }

    private static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        String m = c.getMessage();
        return m == null ? c.getClass().getSimpleName() : m;
    }
}
