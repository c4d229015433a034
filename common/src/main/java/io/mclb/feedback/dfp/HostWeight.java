package io.mclb.feedback.dfp;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * One host entry of a Load TLV: the weight for (real IPv4 address, port, protocol, bind ID).
 *
 * @param address  IPv4 address as an int, network order (DFP carries IPv4 only)
 * @param port     0 = any port
 * @param protocol 0 = any, else the IP protocol number (17 = UDP)
 * @param weight   0..65535; 0 = no new work (DFP_THROTTLED)
 */
public record HostWeight(int address, int port, int protocol, int bindId, int weight) {
    public HostWeight {
        if (port < 0 || port > 0xffff || protocol < 0 || protocol > 0xff || bindId < 0 || bindId > 0xffff
                || weight < 0 || weight > 0xffff) {
            throw new IllegalArgumentException("host weight out of range: port " + port + " protocol " + protocol
                    + " bind id " + bindId + " weight " + weight);
        }
    }

    /** Same Load TLV: same port and protocol. */
    public boolean sameGroup(HostWeight o) {
        return port == o.port && protocol == o.protocol;
    }

    public static int ipv4(InetAddress a) {
        byte[] b = a.getAddress();
        if (!(a instanceof Inet4Address)) {
            throw new IllegalArgumentException(a.getHostAddress() + " is not IPv4 (DFP carries IPv4 hosts only)");
        }
        return ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
    }

    public static String text(int ipv4) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) (ipv4 >>> 24), (byte) (ipv4 >>> 16), (byte) (ipv4 >>> 8),
                    (byte) ipv4}).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String protocolName(int protocol) {
        return switch (protocol) {
            case DfpWire.PROTOCOL_ANY -> "any";
            case DfpWire.PROTOCOL_UDP -> "udp";
            case DfpWire.PROTOCOL_TCP -> "tcp";
            default -> Integer.toString(protocol);
        };
    }

    @Override
    public String toString() {
        return text(address) + ":" + port + "/" + protocolName(protocol) + " bind " + bindId + " weight " + weight;
    }
}
