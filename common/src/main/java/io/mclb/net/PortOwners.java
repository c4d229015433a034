package io.mclb.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Who holds a UDP port, read from {@code /proc} (Linux) when a bind fails, so the start-up error
 * can say "already served by mclb pid N (config FILE)" instead of leaving the operator to run
 * {@code ss}. Only the sockets of this network namespace are visible, which is what a clash is
 * about. Best effort: another user's processes may be unreadable, and then nothing is named.
 */
public final class PortOwners {
    private static final Path PROC = Path.of("/proc");

    private PortOwners() {
    }

    /** Another process holding UDP {@code address} (or the wildcard on its port), described; empty if none is found. */
    public static Optional<Owner> udp(InetSocketAddress address) {
        try {
            Set<String> inodes = socketInodes(address);
            if (inodes.isEmpty()) {
                return Optional.empty();
            }
            long self = ProcessHandle.current().pid();
            try (DirectoryStream<Path> procs = Files.newDirectoryStream(PROC, "[0-9]*")) {
                for (Path p : procs) {
                    long pid = Long.parseLong(p.getFileName().toString());
                    if (pid != self && holdsAny(p, inodes)) {
                        return Optional.of(Owner.of(pid, cmdline(p)));
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or /proc not readable: the caller says what it knows without a name
        }
        return Optional.empty();
    }

    /** A process holding a port: mclb (with its configuration file when the command line names one) or another program. */
    public record Owner(long pid, boolean mclb, String program, String config) {

        static Owner of(long pid, List<String> argv) {
            boolean mclb = argv.contains("io.mclb.Main");
            String config = null;
            for (int i = 0; i + 1 < argv.size(); i++) {
                if (argv.get(i).equals("-c") || argv.get(i).equals("--config")) {
                    config = argv.get(i + 1);
                }
            }
            String program = argv.isEmpty() ? "?" : Path.of(argv.get(0)).getFileName().toString();
            return new Owner(pid, mclb, program, config);
        }

        @Override
        public String toString() {
            if (mclb) {
                return "mclb pid " + pid + (config != null ? " (config " + config + ")" : "");
            }
            return program + " pid " + pid;
        }
    }

    /**
     * Inodes of the sockets bound to {@code address}'s port on that address or a wildcard. An IPv4
     * address is also held by an IPv6 socket bound to its mapped form or to {@code ::} (Java's own
     * sockets are dual-stack IPv6 ones).
     */
    private static Set<String> socketInodes(InetSocketAddress address) throws IOException {
        String port = String.format(Locale.ROOT, "%04X", address.getPort());
        byte[] a = address.getAddress().getAddress();
        Set<String> inodes = new HashSet<>();
        if (a.length == 4) {
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xFF;
            mapped[11] = (byte) 0xFF;
            System.arraycopy(a, 0, mapped, 12, 4);
            collect(PROC.resolve("net/udp"), Set.of(hex(a) + ":" + port, hex(new byte[4]) + ":" + port), inodes);
            collect(PROC.resolve("net/udp6"), Set.of(hex(mapped) + ":" + port, hex(new byte[16]) + ":" + port), inodes);
        } else {
            collect(PROC.resolve("net/udp6"), Set.of(hex(a) + ":" + port, hex(new byte[16]) + ":" + port), inodes);
        }
        return inodes;
    }

    private static void collect(Path table, Set<String> locals, Set<String> inodes) throws IOException {
        if (!Files.isReadable(table)) {
            return;
        }
        for (String line : Files.readAllLines(table, StandardCharsets.US_ASCII)) {
            String[] f = line.trim().split("\\s+");
            // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
            if (f.length > 9 && locals.contains(f[1].toUpperCase(Locale.ROOT))) {
                inodes.add("socket:[" + f[9] + "]");
            }
        }
    }

    /** The kernel prints each 32-bit word of the address as a host-order integer. */
    static String hex(InetAddress a) {
        return hex(a.getAddress());
    }

    private static String hex(byte[] b) {
        boolean little = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN;
        StringBuilder s = new StringBuilder();
        for (int w = 0; w < b.length; w += 4) {
            for (int i = 0; i < 4; i++) {
                s.append(String.format(Locale.ROOT, "%02X", b[w + (little ? 3 - i : i)] & 0xFF));
            }
        }
        return s.toString();
    }

    private static boolean holdsAny(Path proc, Set<String> inodes) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
            for (Path fd : fds) {
                try {
                    if (inodes.contains(Files.readSymbolicLink(fd).toString())) {
                        return true;
                    }
                } catch (IOException gone) {
                    // closed meanwhile
                }
            }
        } catch (IOException | SecurityException unreadable) {
            // another user's process, or it exited
        }
        return false;
    }

    private static List<String> cmdline(Path proc) throws IOException {
        String raw = new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8);
        return List.of(raw.split("\0"));
    }
}
