package io.mclb.config;

import java.net.InetAddress;

/** {@code client IP MASK [exclude]}: which clients a virtual server accepts (default: all). */
public record ClientRule(InetAddress address, int prefixLength, boolean exclude) {

    /** Whether the IPv4 client {@code ip} (its address as an int) falls in this rule's network. */
    public boolean matchesIpv4(int ip) {
        if (!(address instanceof java.net.Inet4Address)) {
            return false;
        }
        int mask = prefixLength == 0 ? 0 : -1 << (32 - prefixLength);
        return ((address.hashCode() ^ ip) & mask) == 0; // Inet4Address.hashCode() is the address
    }

    /** Whether the client address falls in this rule's network. */
    public boolean matches(byte[] client) {
        byte[] net = address.getAddress();
        if (net.length != client.length) {
            return false;
        }
        int full = prefixLength / 8;
        for (int i = 0; i < full; i++) {
            if (net[i] != client[i]) {
                return false;
            }
        }
        int rest = prefixLength % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (net[full] & mask) == (client[full] & mask);
    }
}
