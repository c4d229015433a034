package io.mclb.ha;

import io.mclb.config.CiscoType7;

import io.mclb.config.ExtensionLine;
import io.mclb.ha.group.GroupConfig;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the HA lines into {@link GroupConfig}s. Grammar (IOS {@code standby} lines, reference/hsrp.md
 * section 7, plus mclb's {@code standby G peer IP}); GROUP may be omitted (group 0):
 * <pre>
 * track N interface IFACE line-protocol
 * interface IFACE
 *  ip address A MASK            (IPv4 dotted mask) | ip address A/PREFIX
 *  standby version 1|2
 *  standby G ip VIP
 *  standby G priority P                              0..255, default 100
 *  standby G preempt [delay [minimum] S]             S 0..3600
 *  standby G timers [msec] HELLO [msec] HOLD         seconds 1..255, or msec 15..999 / 50..3000
 *  standby G authentication md5 key-string [0|7] KEY
 *  standby G track N [decrement D]                   default decrement 10
 *  standby G name NAME
 *  standby G peer IP                                 (mclb) unicast hellos to this peer; repeatable
 *  description ... | shutdown | no shutdown          accepted, ignored
 * </pre>
 * Every failure is an {@link IllegalArgumentException} whose message names the line and what is allowed.
 */
final class HaConfigReader {

    private HaConfigReader() {
    }

    /** The tracked objects of the global {@code track} lines: object number to interface. */
    static Map<Integer, String> tracks(List<ExtensionLine> lines) {
        Map<Integer, String> out = new HashMap<>();
        for (ExtensionLine l : lines) {
            if (l.tokens().get(0).equalsIgnoreCase("track")) {
                out.put(trackLine(l.tokens()), l.tokens().get(3));
            }
        }
        return out;
    }

    /** Checks a global {@code track N interface IFACE line-protocol} line; returns N. */
    static int trackLine(List<String> t) {
        if (t.size() != 5 || !t.get(2).equalsIgnoreCase("interface") || !t.get(4).equalsIgnoreCase("line-protocol")) {
            throw new IllegalArgumentException("'" + String.join(" ", t) + "': allowed 'track N interface IFACE line-protocol'");
        }
        return number(t.get(1), "track", 1, 1000);
    }

    /**
     * The groups of every {@code interface} stanza; {@code tracks} resolves {@code standby G track N}
     * (null: not resolved, used while parsing when the {@code track} lines may still follow).
     */
    static List<GroupConfig> groups(List<ExtensionLine> lines, Map<Integer, String> tracks) {
        List<GroupConfig> out = new ArrayList<>();
        for (ExtensionLine l : lines) {
            if (l.tokens().get(0).equalsIgnoreCase("interface")) {
                out.addAll(stanza(l.tokens(), l.children(), tracks));
            }
        }
        return out;
    }

    private static final class Builder {
        InetAddress vip;
        int priority = GroupConfig.DEFAULT_PRIORITY;
        boolean preempt;
        long delayMs;
        int helloMs = GroupConfig.DEFAULT_HELLO_MS;
        int holdMs = GroupConfig.DEFAULT_HOLD_MS;
        byte[] key;
        String name;
        final List<GroupConfig.Track> tracks = new ArrayList<>();
        final List<InetAddress> peers = new ArrayList<>();
    }

    static List<GroupConfig> stanza(List<String> header, List<List<String>> children, Map<Integer, String> tracks) {
        if (header.size() != 2) {
            throw new IllegalArgumentException("'" + String.join(" ", header) + "': allowed 'interface NAME'");
        }
        String iface = header.get(1);
        InetAddress address = null;
        int prefix = 0;
        int version = 1;
        Map<Integer, Builder> groups = new LinkedHashMap<>();
        for (List<String> t : children) {
            String line = String.join(" ", t);
            String k = t.get(0).toLowerCase(Locale.ROOT);
            if (k.equals("description") || k.equals("shutdown") || (k.equals("no") && t.size() == 2
                    && t.get(1).equalsIgnoreCase("shutdown"))) {
                continue;
            }
            if (k.equals("ip") && t.size() >= 3 && t.get(1).equalsIgnoreCase("address")) {
                String[] ap = t.get(2).split("/", 2);
                address = address(ap[0], line);
                if (ap.length == 2) {
                    prefix = number(ap[1], line + ": prefix", 0, address instanceof Inet4Address ? 32 : 128);
                    end(t, 2, line);
                } else {
                    if (t.size() != 4) {
                        throw new IllegalArgumentException("'" + line + "': allowed 'ip address A MASK' or 'ip address A/PREFIX'");
                    }
                    prefix = mask(t.get(3), line);
                }
                continue;
            }
            if (!k.equals("standby") || t.size() < 2) {
                throw new IllegalArgumentException("interface " + iface + ": unknown line '" + line
                        + "', allowed 'ip address', 'standby ...', 'description', '[no] shutdown'");
            }
            if (t.get(1).equalsIgnoreCase("version")) {
                version = number(t.size() > 2 ? t.get(2) : "", line, 1, 2);
                end(t, 2, line);
                continue;
            }
            int i = 1;
            int g = 0;
            if (t.get(1).matches("[0-9]+")) {
                g = number(t.get(1), line + ": group", 0, 4095);
                i = 2;
            }
            if (i >= t.size()) {
                throw new IllegalArgumentException("'" + line + "': missing keyword");
            }
            standby(groups.computeIfAbsent(g, x -> new Builder()), t, i, line, tracks);
        }
        List<GroupConfig> out = new ArrayList<>();
        for (Map.Entry<Integer, Builder> e : groups.entrySet()) {
            Builder b = e.getValue();
            if (address == null) {
                throw new IllegalArgumentException("interface " + iface + ": standby " + e.getKey()
                        + " needs 'ip address A MASK' on the interface");
            }
            if (version == 1 && e.getKey() > 255) {
                throw new IllegalArgumentException("interface " + iface + ": standby group " + e.getKey()
                        + " needs 'standby version 2' (version 1 allows 0..255)");
            }
            if (b.holdMs <= b.helloMs) {
                throw new IllegalArgumentException("interface " + iface + ": standby " + e.getKey() + " timers: hold "
                        + b.holdMs + " ms must exceed hello " + b.helloMs + " ms");
            }
            String name = b.name != null ? b.name : "hsrp-" + iface + "-" + e.getKey();
            out.add(new GroupConfig(iface, address, prefix, version, e.getKey(), name, b.vip, b.priority, b.preempt,
                    b.delayMs, b.helloMs, b.holdMs, b.key, b.tracks, b.peers));
        }
        return out;
    }

    private static void standby(Builder b, List<String> t, int i, String line, Map<Integer, String> tracks) {
        switch (t.get(i).toLowerCase(Locale.ROOT)) {
            case "ip" -> {
                b.vip = address(i + 1 < t.size() ? t.get(i + 1) : "", line);
                end(t, i + 1, line);
            }
            case "priority" -> {
                b.priority = number(i + 1 < t.size() ? t.get(i + 1) : "", line, 0, 255);
                end(t, i + 1, line);
            }
            case "preempt" -> {
                b.preempt = true;
                int j = i + 1;
                if (j < t.size()) {
                    if (!t.get(j).equalsIgnoreCase("delay")) {
                        throw new IllegalArgumentException("'" + line + "': allowed 'preempt [delay [minimum] S]'");
                    }
                    j++;
                    if (j < t.size() && t.get(j).equalsIgnoreCase("minimum")) {
                        j++;
                    }
                    b.delayMs = 1000L * number(j < t.size() ? t.get(j) : "", line + ": delay", 0, 3600);
                    end(t, j, line);
                }
            }
            case "timers" -> {
                int j = i + 1;
                boolean helloMsec = j < t.size() && t.get(j).equalsIgnoreCase("msec");
                j += helloMsec ? 1 : 0;
                int hello = helloMsec ? number(arg(t, j), line + ": hello msec", 15, 999)
                        : 1000 * number(arg(t, j), line + ": hello seconds", 1, 254);
                j++;
                boolean holdMsec = j < t.size() && t.get(j).equalsIgnoreCase("msec");
                j += holdMsec ? 1 : 0;
                int hold = holdMsec ? number(arg(t, j), line + ": hold msec", 50, 3000)
                        : 1000 * number(arg(t, j), line + ": hold seconds", 2, 255);
                end(t, j, line);
                b.helloMs = hello;
                b.holdMs = hold;
            }
            case "authentication" -> {
                if (t.size() < i + 4 || !t.get(i + 1).equalsIgnoreCase("md5")
                        || !t.get(i + 2).equalsIgnoreCase("key-string")) {
                    throw new IllegalArgumentException("standby authentication: allowed 'authentication md5 key-string [0|7] KEY'");
                }
                int j = i + 3;
                boolean typed = (t.get(j).equals("0") || t.get(j).equals("7")) && j + 1 < t.size();
                String key = typed ? t.get(j + 1) : t.get(j);
                if (typed && t.get(j).equals("7")) {
                    key = CiscoType7.decode(key);
                }
                end(t, typed ? j + 1 : j, "standby authentication md5 key-string");
                b.key = key.getBytes(StandardCharsets.UTF_8);
            }
            case "track" -> {
                int n = number(arg(t, i + 1), line + ": track object", 1, 1000);
                int dec = GroupConfig.DEFAULT_DECREMENT;
                if (i + 2 < t.size()) {
                    if (!t.get(i + 2).equalsIgnoreCase("decrement")) {
                        throw new IllegalArgumentException("'" + line + "': allowed 'track N [decrement D]'");
                    }
                    dec = number(arg(t, i + 3), line + ": decrement", 1, 255);
                    end(t, i + 3, line);
                }
                String iface = tracks == null ? "" : tracks.get(n);
                if (iface == null) {
                    throw new IllegalArgumentException("'" + line + "': no 'track " + n
                            + " interface IFACE line-protocol' line defines object " + n);
                }
                b.tracks.add(new GroupConfig.Track(n, iface, dec));
            }
            case "name" -> {
                if (i + 1 >= t.size()) {
                    throw new IllegalArgumentException("'" + line + "': missing name");
                }
                end(t, i + 1, line);
                b.name = t.get(i + 1);
            }
            case "peer" -> {
                b.peers.add(address(arg(t, i + 1), line));
                end(t, i + 1, line);
            }
            default -> throw new IllegalArgumentException("'" + line + "': unknown standby keyword '" + t.get(i)
                    + "', allowed ip, priority, preempt, timers, authentication, track, name, peer");
        }
    }

    private static String arg(List<String> t, int i) {
        return i < t.size() ? t.get(i) : "";
    }

    private static void end(List<String> t, int last, String line) {
        if (t.size() > last + 1) {
            throw new IllegalArgumentException("'" + line + "': unexpected '"
                    + String.join(" ", t.subList(last + 1, t.size())) + "'");
        }
    }

    static int number(String s, String label, int min, int max) {
        if (!s.matches("[0-9]{1,9}") || Integer.parseInt(s) < min || Integer.parseInt(s) > max) {
            throw new IllegalArgumentException(label + (s.isEmpty() ? ": missing value" : " " + s
                    + ": not a number in range") + ", allowed " + min + ".." + max);
        }
        return Integer.parseInt(s);
    }

    static InetAddress address(String s, String line) {
        boolean literal = s.matches("[0-9.]+") && s.split("\\.").length == 4 || s.indexOf(':') >= 0 && s.matches("[0-9A-Fa-f:.]+");
        if (literal) {
            try {
                return InetAddress.getByName(s); // a literal: never resolved through DNS
            } catch (UnknownHostException e) {
                // fall through to the error
            }
        }
        throw new IllegalArgumentException("'" + line + "': " + (s.isEmpty() ? "missing IP address" : s
                + " is not an IP address"));
    }

    private static int mask(String s, String line) {
        InetAddress a = address(s, line);
        byte[] b = a.getAddress();
        long bits = ((b[0] & 0xffL) << 24) | ((b[1] & 0xffL) << 16) | ((b[2] & 0xffL) << 8) | (b[3] & 0xffL);
        int len = Long.bitCount(bits);
        long contiguous = len == 0 ? 0 : (0xffff_ffffL << (32 - len)) & 0xffff_ffffL;
        if (bits != contiguous) {
            throw new IllegalArgumentException("'" + line + "': " + s + " is not a contiguous network mask");
        }
        return len;
    }
}
