package io.mclb.ha.vip;

import java.net.InetAddress;

/**
 * The privileged OS actions of a takeover (Seesaw's split): add the virtual address to an
 * interface and tell the neighbours (gratuitous ARP / unsolicited neighbour advertisement), or
 * remove it. Implementations are idempotent (adding an address that is there, or removing one that
 * is not, succeeds) and never throw: failures are logged and reported by the return value.
 */
public interface VirtualAddressControl {

    /** @return whether the address is on the interface afterwards */
    boolean acquire(String iface, InetAddress vip, int prefix);

    /** @return whether the address is gone from the interface afterwards */
    boolean release(String iface, InetAddress vip, int prefix);
}
