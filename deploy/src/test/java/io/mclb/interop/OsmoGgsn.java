package io.mclb.interop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real osmo-ggsn (Debian package {@code osmo-ggsn}) running inside a {@link Netns}: instance
 * {@code i} (1..) serves GTPv0 (3386), GTPv1-C (2123) and GTP-U (2152) on {@code 127.0.0.(i+1)},
 * hands out addresses from {@code 100.64.i.0/24} on APN {@code internet} through its own tun
 * device {@code ggsntun<i>}, and binds its VTY and CTRL to its own address (the defaults
 * 127.0.0.1:4260/4257 would collide between instances). Config per peers.md section 7.
 *
 * <p>{@link #start} returns once all three UDP sockets are bound (bounded wait).
 */
public final class OsmoGgsn {
    /** The only APN the instances serve. */
    public static final String APN = "internet";

    private final int index;
    private final NsProcess process;

    private OsmoGgsn(int index, NsProcess process) {
        this.index = index;
        this.process = process;
    }

    /** Writes {@code ggsn<i>.cfg} under the namespace's directory, starts the GGSN and waits for its sockets. */
    public static OsmoGgsn start(Netns ns, int index) throws IOException, InterruptedException {
        String ip = address(index);
        Path state = ns.dir().resolve("ggsn" + index + "-state");
        Files.createDirectories(state);
        Path cfg = ns.dir().resolve("ggsn" + index + ".cfg");
        Files.writeString(cfg, String.join("\n",
                "log stderr",
                " logging filter all 1",
                " logging color 0",
                " logging print category 1",
                " logging timestamp 1",
                " logging level ggsn info",
                " logging level lgtp info",
                "line vty",
                " no login",
                " bind " + ip,
                "ctrl",
                " bind " + ip,
                "ggsn ggsn" + index,
                " gtp state-dir " + state,
                " gtp bind-ip " + ip,
                // the GGSN's own echo toward SGSNs: long enough not to clutter a short capture
                " echo-interval 60",
                " apn " + APN,
                "  gtpu-mode tun",
                "  tun-device ggsntun" + index,
                "  type-support v4",
                "  ip prefix dynamic 100.64." + index + ".0/24",
                "  ip dns 0 192.0.2.53",
                "  no shutdown",
                " default-apn " + APN,
                " no shutdown ggsn", ""));
        NsProcess p = ns.start("ggsn" + index, List.of("osmo-ggsn", "-c", cfg.toString()));
        ns.awaitUdpListening(p, Duration.ofSeconds(15), ip + ":2123", ip + ":3386", ip + ":2152");
        return new OsmoGgsn(index, p);
    }

    /** The address instance {@code index} binds: 127.0.0.(index+1). */
    public static String address(int index) {
        return "127.0.0." + (index + 1);
    }

    public String address() {
        return address(index);
    }

    /** The prefix this instance's dynamic addresses come from, e.g. {@code 100.64.1.}. */
    public String euaPrefix() {
        return "100.64." + index + ".";
    }

    public NsProcess process() {
        return process;
    }

    /**
     * Runs VTY {@code commands} on this instance (from the enable node, e.g. {@code configure
     * terminal}, {@code ggsn ggsn1}, ...), each awaited until the VTY prompt returns; bounded.
     * Returns the VTY's output.
     */
    public String vty(Netns ns, String... commands) throws IOException, InterruptedException {
        String script = String.join("\n",
                "import socket, sys",
                "s = socket.create_connection((sys.argv[1], 4260), timeout=10)",
                "out = b''",
                "def prompt():",
                "    global out",
                "    while not (out.rstrip().endswith(b'#') or out.rstrip().endswith(b'>')):",
                "        b = s.recv(65536)",
                "        if not b: raise SystemExit('vty closed: ' + out.decode(errors='replace'))",
                "        out += b",
                "prompt()",
                "for c in ['enable'] + sys.argv[2:]:",
                "    out = b''",
                "    s.sendall(c.encode() + b'\\r\\n')",
                "    prompt()",
                "    sys.stdout.write(out.decode(errors='replace'))",
                "");
        List<String> cmd = new java.util.ArrayList<>(List.of("/usr/bin/python3", "-c", script, address()));
        cmd.addAll(List.of(commands));
        return ns.exec(Duration.ofSeconds(20), cmd.toArray(String[]::new)).check("vty of " + address()).output();
    }

    /** Shuts the APN down: osmo-ggsn then deletes every PDP context of it, sending a Delete PDP Context Request to each SGSN. */
    public String shutdownApn(Netns ns) throws IOException, InterruptedException {
        return vty(ns, "configure terminal", "ggsn ggsn" + index, "apn " + APN, "shutdown", "end");
    }
}
