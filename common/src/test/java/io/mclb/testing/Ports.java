package io.mclb.testing;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free ports for tests, picked outside the kernel's ephemeral range. A test picks a port, closes
 * its probe socket and later has mclb bind it; meanwhile mclb's own upstream sockets (bound to
 * port 0: RADIUS alone opens 16 per event loop) draw from the ephemeral range, and one of them
 * could take a port picked there. Outside that range only an explicit bind can collide.
 */
public final class Ports {
    private static final int[] RANGE = pickRange();
    /** handed out in this JVM: two picks in a row are free alike, so a test's second pick must differ */
    private static final java.util.Set<Integer> GIVEN = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private Ports() {
    }

    /** A UDP port free on {@code address} now. */
    public static int freeUdp(String address) throws IOException {
        InetAddress a = InetAddress.getByName(address);
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = candidate();
            if (!GIVEN.add(port)) {
                continue;
            }
            try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(a, port))) {
                return s.getLocalPort();
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no free UDP port on " + address + " in " + RANGE[0] + ".." + RANGE[1]);
    }

    /** A TCP port free on {@code address} now. */
    public static int freeTcp(String address) throws IOException {
        InetAddress a = InetAddress.getByName(address);
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = candidate();
            if (!GIVEN.add(port)) {
                continue;
            }
            try (ServerSocket s = new ServerSocket(port, 1, a)) {
                return s.getLocalPort();
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no free TCP port on " + address + " in " + RANGE[0] + ".." + RANGE[1]);
    }

    private static int candidate() {
        return ThreadLocalRandom.current().nextInt(RANGE[0], RANGE[1] + 1);
    }

    /** Ports below the ephemeral range if there is room, else above it. */
    private static int[] pickRange() {
        int low = 32768;
        int high = 60999;
        try {
            String[] f = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+");
            low = Integer.parseInt(f[0]);
            high = Integer.parseInt(f[1]);
        } catch (IOException | RuntimeException e) {
            // not Linux or not readable: assume the default range
        }
        if (low - 1 >= 12000) {
            return new int[] {Math.max(1024, low - 12000), low - 1};
        }
        if (65535 - high >= 1000) {
            return new int[] {high + 1, 65535};
        }
        return new int[] {1024, 65535}; // the whole range is ephemeral: nothing better to do
    }
}
