package io.mclb.ha;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.ConfigLine;
import io.mclb.ha.group.GroupConfig;
import io.mclb.service.ConfigSyntax.Claim;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the HA lines into {@link HaLines} records. Grammar (IOS {@code standby} lines,
 * reference/hsrp.md section 7, plus mclb's {@code standby G peer IP}); GROUP may be omitted (group 0):
 * <pre>
 * track N interface IFACE line-protocol
 * interface IFACE
 *  ip address A MASK            (IPv4 dotted mask) | ip address A/PREFIX
 *  standby version 1|2
 *  standby G ip VIP
 *  standby G priority P                              0..255, default 100
 *  standby G preempt [delay [minimum] S]             S 0..3600
 *  standby G timers [msec] HELLO [msec] HOLD         seconds 1..254 / 2..255, or msec 15..999 / 50..3000
 *  standby G authentication md5 key-string [0|7] KEY
 *  standby G track N [decrement D]                   default decrement 10
 *  standby G name NAME
 *  standby G peer IP                                 (mclb) unicast hellos to this peer; repeatable
 *  description ... | shutdown | no shutdown          accepted, ignored
 * </pre>
 * Values are read with {@link Args}; a bad one is a {@link BadLine} naming it and what is allowed.
 */
final class HaConfigReader {

    private HaConfigReader() {
    }

    /** A global {@code track N interface IFACE line-protocol} line. */
    static HaLines.TrackLine trackLine(ConfigLine l) throws BadLine {
        if (l.size() != 5 || !l.is(2, "interface") || !l.is(4, "line-protocol")) {
            throw new BadLine("'" + l.text() + "': allowed 'track N interface IFACE line-protocol'");
        }
        return new HaLines.TrackLine(Args.integer(l.tokens(), 1, "track", 1, 1000), l.get(3));
    }

    /** What the {@code standby G ...} lines of one group have said so far. */
    private static final class Group {
        InetAddress vip;
        int priority = GroupConfig.DEFAULT_PRIORITY;
        boolean preempt;
        long delayMs;
        int helloMs = GroupConfig.DEFAULT_HELLO_MS;
        int holdMs = GroupConfig.DEFAULT_HOLD_MS;
        String key;
        String name;
        final List<HaLines.TrackRef> tracks = new ArrayList<>();
        final List<InetAddress> peers = new ArrayList<>();
    }

    /**
     * An {@code interface NAME} stanza as an {@link HaLines.HaInterface}, its key-string stored as
     * type 7 so {@code show running-config} never prints it in clear.
     */
    static Claim stanza(ConfigLine header, List<ConfigLine> children) throws BadLine {
        if (header.size() != 2) {
            throw new BadLine("'" + header.text() + "': allowed 'interface NAME'");
        }
        String iface = header.get(1);
        InetAddress address = null;
        int prefix = 0;
        int version = 1;
        Map<Integer, Group> groups = new LinkedHashMap<>();
        List<List<String>> stored = new ArrayList<>(children.size());
        for (ConfigLine l : children) {
            List<String> t = l.tokens();
            stored.add(t);
            if (l.is(0, "description") || l.is(0, "shutdown") || (l.is(0, "no") && l.size() == 2 && l.is(1, "shutdown"))) {
                continue;
            }
            if (l.is(0, "ip") && l.is(1, "address") && l.size() >= 3) {
                String[] ap = t.get(2).split("/", 2);
                address = Args.address(List.of(ap[0]), 0, "ip address");
                prefix = prefix(l, ap, address);
                continue;
            }
            if (!l.is(0, "standby") || l.size() < 2) {
                throw new BadLine("interface " + iface + ": unknown line '" + l.text()
                        + "', allowed 'ip address', 'standby ...', 'description', '[no] shutdown'");
            }
            if (l.is(1, "version")) {
                version = Args.integer(t, 2, "standby version", 1, 2);
                Args.end(t, 2, "standby version");
                continue;
            }
            boolean numbered = t.get(1).matches("[0-9]+");
            int g = numbered ? Args.integer(t, 1, "standby group", 0, 4095) : 0;
            int i = numbered ? 2 : 1;
            if (i >= t.size()) {
                throw new BadLine("standby " + g + ": missing keyword, allowed " + KEYWORDS);
            }
            Group b = groups.computeIfAbsent(g, x -> new Group());
            if (standby(b, l, i, "standby " + g + " " + l.word(i))) {
                stored.set(stored.size() - 1, Args.withType7Secret(t, i + 3, b.key));
            }
        }
        List<HaLines.Standby> out = new ArrayList<>();
        for (Map.Entry<Integer, Group> e : groups.entrySet()) {
            out.add(group(iface, address, version, e.getKey(), e.getValue()));
        }
        return Claim.stanza(new HaLines.HaInterface(iface, address, prefix, version, out), null, stored);
    }

    /** The prefix length of {@code ip address A MASK} or {@code ip address A/PREFIX}. */
    private static int prefix(ConfigLine l, String[] ap, InetAddress address) throws BadLine {
        int max = address instanceof Inet4Address ? 32 : 128;
        String label = "ip address " + ap[0];
        if (ap.length == 2) {
            Args.end(l.tokens(), 2, label + "/" + ap[1]);
            return Args.prefix("/" + ap[1], label, max);
        }
        if (l.size() != 4) {
            throw new BadLine("'" + l.text() + "': allowed 'ip address A MASK' or 'ip address A/PREFIX'");
        }
        return Args.prefix(l.get(3), label, max);
    }

    private static HaLines.Standby group(String iface, InetAddress address, int version, int g, Group b) throws BadLine {
        if (address == null) {
            throw new BadLine("interface " + iface + ": standby " + g + " needs 'ip address A MASK' on the interface");
        }
        if (version == 1 && g > 255) {
            throw new BadLine("interface " + iface + ": standby group " + g
                    + " needs 'standby version 2' (version 1 allows 0..255)");
        }
        if (b.holdMs <= b.helloMs) {
            throw new BadLine("interface " + iface + ": standby " + g + " timers: hold " + b.holdMs
                    + " ms must exceed hello " + b.helloMs + " ms");
        }
        String name = b.name != null ? b.name : "hsrp-" + iface + "-" + g;
        return new HaLines.Standby(g, name, b.vip, b.priority, b.preempt, b.delayMs, b.helloMs, b.holdMs, b.key,
                b.tracks, b.peers);
    }

    private static final String KEYWORDS = "ip, priority, preempt, timers, authentication, track, name, peer";

    /**
     * One {@code standby G KEYWORD ...} line, the keyword at {@code i}, into {@code b}; true when it
     * was the key-string (the caller stores it obfuscated).
     */
    private static boolean standby(Group b, ConfigLine l, int i, String label) throws BadLine {
        List<String> t = l.tokens();
        switch (l.word(i)) {
            case "ip" -> {
                b.vip = Args.address(t, i + 1, label);
                Args.end(t, i + 1, label);
            }
            case "priority" -> {
                b.priority = Args.integer(t, i + 1, label, 0, 255);
                Args.end(t, i + 1, label);
            }
            case "preempt" -> preempt(b, t, i, label);
            case "timers" -> timers(b, t, i, label);
            case "authentication" -> {
                if (!Args.is(t, i + 1, "md5") || !Args.is(t, i + 2, "key-string")) {
                    throw new BadLine(label + ": allowed 'authentication md5 key-string [0|7] KEY'");
                }
                b.key = Args.secret(t, i + 3, label + " md5 key-string");
                return true;
            }
            case "track" -> {
                int n = Args.integer(t, i + 1, label + " object", 1, 1000);
                int dec = GroupConfig.DEFAULT_DECREMENT;
                if (i + 2 < t.size()) {
                    if (!Args.is(t, i + 2, "decrement")) {
                        throw new BadLine(label + " " + n + ": unexpected '" + t.get(i + 2)
                                + "', allowed 'track N [decrement D]'");
                    }
                    dec = Args.integer(t, i + 3, label + " " + n + " decrement", 1, 255);
                    Args.end(t, i + 3, label);
                }
                b.tracks.add(new HaLines.TrackRef(n, dec, l.source()));
            }
            case "name" -> {
                b.name = Args.token(t, i + 1, label, "name");
                Args.end(t, i + 1, label);
            }
            case "peer" -> {
                b.peers.add(Args.address(t, i + 1, label));
                Args.end(t, i + 1, label);
            }
            default -> throw new BadLine("'" + l.text() + "': unknown standby keyword '" + t.get(i)
                    + "', allowed " + KEYWORDS);
        }
        return false;
    }

    /** {@code preempt [delay [minimum] S]}. */
    private static void preempt(Group b, List<String> t, int i, String label) throws BadLine {
        b.preempt = true;
        int j = i + 1;
        if (j >= t.size()) {
            return;
        }
        if (!Args.is(t, j, "delay")) {
            throw new BadLine(label + ": unexpected '" + t.get(j) + "', allowed 'preempt [delay [minimum] S]'");
        }
        j += Args.is(t, j + 1, "minimum") ? 2 : 1;
        b.delayMs = 1000L * Args.integer(t, j, label + " delay", 0, 3600);
        Args.end(t, j, label);
    }

    /** {@code timers [msec] HELLO [msec] HOLD}. */
    private static void timers(Group b, List<String> t, int i, String label) throws BadLine {
        int j = i + 1;
        boolean helloMsec = Args.is(t, j, "msec");
        j += helloMsec ? 1 : 0;
        int hello = helloMsec ? Args.integer(t, j, label + " hello msec", 15, 999)
                : 1000 * Args.integer(t, j, label + " hello seconds", 1, 254);
        j++;
        boolean holdMsec = Args.is(t, j, "msec");
        j += holdMsec ? 1 : 0;
        int hold = holdMsec ? Args.integer(t, j, label + " hold msec", 50, 3000)
                : 1000 * Args.integer(t, j, label + " hold seconds", 2, 255);
        Args.end(t, j, label);
        b.helloMs = hello;
        b.holdMs = hold;
    }
}
