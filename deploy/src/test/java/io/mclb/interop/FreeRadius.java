package io.mclb.interop;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real FreeRADIUS 3.2 server (Debian package {@code freeradius}) inside a {@link Netns}:
 * instance {@code i} (1..) serves authentication on {@code 127.0.0.(4+i):1812} and accounting on
 * {@code :1813}, knows every NAS on 127.0.0.0/8 with secret {@link #SECRET}, answers Status-Server,
 * and accepts the given users with PAP, replying with the user's Framed-IP-Address and a
 * Reply-Message {@code "aaa<i>"} that names the answering server. Config per peers.md section 8
 * (a self-contained directory: {@code radiusd.conf}, {@code users}, an empty {@code dictionary}).
 *
 * <p>{@link #start} returns once both sockets are bound (bounded wait); if the server exits or
 * does not bind, the failure carries the output of {@code freeradius -C -X} (the config check).
 * {@link #stop()} and {@link #restart()} act on this instance's own pid ({@code -f} keeps it in
 * the foreground, so the started process is the server itself).
 */
public final class FreeRadius {
    /** The secret every instance shares with its clients (mclb's reals use it). */
    public static final String SECRET = "aaa-secret";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);
    /** FreeRADIUS takes a few seconds to exit on SIGTERM (it finishes its threads). */
    private static final Duration STOP_GRACE = Duration.ofSeconds(15);

    /** A subscriber the servers accept: PAP password and the Framed-IP-Address they assign. */
    public record User(String name, String password, String framedIp) {
    }

    private final Netns ns;
    private final int index;
    private final Path dir;
    private NsProcess process;
    private int starts;

    private FreeRadius(Netns ns, int index, Path dir) {
        this.ns = ns;
        this.index = index;
        this.dir = dir;
    }

    /** Writes instance {@code index}'s directory under the namespace's directory, starts it, waits for its sockets. */
    public static FreeRadius start(Netns ns, int index, List<User> users) throws IOException, InterruptedException {
        return start(ns, index, users, false);
    }

    /**
     * As {@link #start(Netns, int, List)}; {@code signReplies}: every Access-Accept and
     * Access-Reject carries a Message-Authenticator, as FreeRADIUS does after the BlastRADIUS
     * fixes (Debian 12's 3.2.1 signs only when told to, which is how).
     */
    public static FreeRadius start(Netns ns, int index, List<User> users, boolean signReplies)
            throws IOException, InterruptedException {
        Path dir = ns.dir().resolve("aaa" + index);
        Files.createDirectories(dir.resolve("log"));
        Files.createDirectories(dir.resolve("run"));
        Files.writeString(dir.resolve("dictionary"), "");
        Files.writeString(dir.resolve("radiusd.conf"), config(dir, index, signReplies));
        StringBuilder u = new StringBuilder();
        for (User user : users) {
            u.append(user.name()).append(" Cleartext-Password := \"").append(user.password()).append("\"\n")
                    .append("     Framed-IP-Address = ").append(user.framedIp()).append(",\n")
                    .append("     Reply-Message = \"").append(name(index)).append("\"\n");
        }
        Files.writeString(dir.resolve("users"), u.toString());
        FreeRadius f = new FreeRadius(ns, index, dir);
        f.launch();
        return f;
    }

    private static String config(Path dir, int index, boolean signReplies) throws IOException {
        String text = resource("radius/radiusd.conf").replace("@DIR@", dir.toString()).replace("@ADDR@", address(index));
        String unsigned = "  post-auth {\n    ok\n  }\n";
        if (!text.contains(unsigned)) {
            throw new IllegalStateException("radiusd.conf has no plain post-auth section to sign replies in");
        }
        String sign = "update reply {\n      &Message-Authenticator := 0x00\n    }\n";
        return signReplies ? text.replace(unsigned, "  post-auth {\n    " + sign
                + "    Post-Auth-Type REJECT {\n      " + sign.replace("\n    }", "\n      }") + "    }\n  }\n") : text;
    }

    /** Restarts this instance signing its replies or not ({@link #start(Netns, int, List, boolean)}). */
    public void restartSigning(boolean signReplies) throws IOException, InterruptedException {
        stop();
        Files.writeString(dir.resolve("radiusd.conf"), config(dir, index, signReplies));
        launch();
    }

    /** The address instance {@code index} listens on: 127.0.0.(4+index). */
    public static String address(int index) {
        return "127.0.0." + (4 + index);
    }

    /** The name in this instance's Reply-Message: {@code aaa<index>}. */
    public static String name(int index) {
        return "aaa" + index;
    }

    public int index() {
        return index;
    }

    public String address() {
        return address(index);
    }

    public NsProcess process() {
        return process;
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Stops this instance (SIGTERM to its pid, SIGKILL after a grace period); its sockets are gone on return. */
    public void stop() throws InterruptedException {
        if (process != null) {
            process.stop(STOP_GRACE);
        }
    }

    /** Starts this instance again with the same directory; returns once it listens. */
    public void restart() throws IOException, InterruptedException {
        stop();
        launch();
    }

    private void launch() throws IOException, InterruptedException {
        starts++;
        process = ns.start(name(index) + (starts == 1 ? "" : "-" + starts), List.of("freeradius", "-f", "-d", dir.toString()));
        try {
            ns.awaitUdpListening(process, START_TIMEOUT, address() + ":1812", address() + ":1813");
        } catch (IllegalStateException e) {
            process.stop(STOP_GRACE);
            Netns.Result check = ns.exec(Duration.ofSeconds(30), "freeradius", "-C", "-X", "-d", dir.toString());
            throw new IllegalStateException(e.getMessage() + "\nradius.log:\n" + radiusLog()
                    + "\nconfig check (freeradius -C -X):\n" + check.output(), e);
        }
    }

    /** FreeRADIUS's own log file (it logs there, not to stdout, with {@code -f}). */
    public String radiusLog() {
        try {
            Path log = dir.resolve("log").resolve("radius.log");
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "(no radius.log)";
        } catch (IOException e) {
            return "(unreadable radius.log: " + e.getMessage() + ")";
        }
    }

    static String resource(String name) throws IOException {
        try (InputStream in = FreeRadius.class.getResourceAsStream("/interop/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no resource interop/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Override
    public String toString() {
        return name(index) + "@" + address();
    }
}
