package io.mclb.ha.group;

import java.net.InetAddress;
import java.util.List;

/**
 * What LocalDirector's failover interface tests do to an interface (seed 000, "Failover Interface
 * Tests"): read its line state and its received-packet count, and stimulate traffic with an ARP
 * request or a broadcast ping. The senders only send; {@link InterfaceTestRun} judges by the
 * received count, as the seed does. Linux: {@link LinuxInterfaceTestIo}; tests: a fake.
 */
public interface InterfaceTestIo {

    boolean linkUp(String iface);

    /** Packets received on the interface so far (any protocol), or -1 when unknown. */
    long receivedPackets(String iface);

    /** Up to {@code max} complete entries of the ARP cache on that interface. */
    List<InetAddress> arpCache(String iface, int max);

    /** Sends one ARP request for {@code target} out of {@code iface}; does not wait for the answer. */
    void arp(String iface, InetAddress target);

    /** Sends one echo request to {@code broadcast} (IPv6: all-nodes) out of {@code iface}; does not wait. */
    void broadcastPing(String iface, InetAddress broadcast);

    /**
     * Only the link test: the line state from {@code links}, and traffic seen at every look, so the
     * network activity test passes at once. For groups run without the LocalDirector tests (the
     * election's own unit tests, loopback groups whose interface carries no neighbours).
     */
    static InterfaceTestIo linkOnly(LinkState links) {
        return new InterfaceTestIo() {
            private long looks;

            @Override
            public boolean linkUp(String iface) {
                return links.up(iface);
            }

            @Override
            public long receivedPackets(String iface) {
                return ++looks;
            }

            @Override
            public List<InetAddress> arpCache(String iface, int max) {
                return List.of();
            }

            @Override
            public void arp(String iface, InetAddress target) {
            }

            @Override
            public void broadcastPing(String iface, InetAddress broadcast) {
            }
        };
    }
}
