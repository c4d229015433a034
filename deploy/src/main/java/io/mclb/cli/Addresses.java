package io.mclb.cli;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/** ADDR:PORT and [V6]:PORT on the command line. */
final class Addresses {
    private Addresses() {
    }

    static InetSocketAddress parse(String s) throws UnknownHostException {
        int i = s.lastIndexOf(':');
        if (i <= 0 || i == s.length() - 1) {
            throw new IllegalArgumentException(s + ": expected ADDR:PORT");
        }
        String host = s.substring(0, i).replace("[", "").replace("]", "");
        int port;
        try {
            port = Integer.parseInt(s.substring(i + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(s + ": port must be a number");
        }
        return new InetSocketAddress(InetAddress.getByName(host), port);
    }
}
