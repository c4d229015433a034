package io.mclb.ha.group;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An interface for {@link InterfaceTestRun} that the test steers: its link, whether traffic arrives
 * on its own ({@link #ambient}: one packet per look), which ARP targets answer, whether a broadcast
 * ping is answered. Records every stimulus sent, in order.
 */
final class FakeInterfaceTestIo implements InterfaceTestIo {
    boolean link = true;
    boolean ambient = true;
    boolean pingAnswered;
    long rx;
    final Set<InetAddress> answeringArp = new HashSet<>();
    final List<InetAddress> cache = new ArrayList<>();
    /** "arp 10.0.0.9", "ping 10.0.0.255" in the order sent. */
    final List<String> sent = new ArrayList<>();

    @Override
    public boolean linkUp(String iface) {
        return link;
    }

    @Override
    public long receivedPackets(String iface) {
        if (link && ambient) {
            rx++;
        }
        return rx;
    }

    @Override
    public List<InetAddress> arpCache(String iface, int max) {
        return cache.subList(0, Math.min(max, cache.size()));
    }

    @Override
    public void arp(String iface, InetAddress target) {
        sent.add("arp " + target.getHostAddress());
        if (link && answeringArp.contains(target)) {
            rx++;
        }
    }

    @Override
    public void broadcastPing(String iface, InetAddress broadcast) {
        sent.add("ping " + broadcast.getHostAddress());
        if (link && pingAnswered) {
            rx++;
        }
    }
}
