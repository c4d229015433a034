package io.mclb.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * The one token helper of the configuration language, for the engine and every module: reads
 * typed arguments out of a line's tokens. Every failure is a {@link BadLine} whose message names
 * the offending value and what is allowed, e.g. {@code weight 70000: out of range, allowed 0..65535}.
 * Keywords compare case-insensitively; names keep their case.
 */
public final class Args {

    private Args() {
    }

    /** Whether token {@code i} is the keyword {@code word} (case-insensitive). */
    public static boolean is(List<String> t, int i, String word) {
        return i < t.size() && t.get(i).equalsIgnoreCase(word);
    }

    /** Token {@code i} in lower case, or "" past the end. */
    public static String word(List<String> t, int i) {
        return i < t.size() ? t.get(i).toLowerCase(java.util.Locale.ROOT) : "";
    }

    /** Token {@code i}, or a {@link BadLine} saying {@code what} is missing. */
    public static String token(List<String> t, int i, String label, String what) throws BadLine {
        if (i >= t.size()) {
            throw new BadLine(label + ": missing " + what);
        }
        return t.get(i);
    }

    /** Token {@code i} as a number in {@code min..max}; {@code label} names it (usually the keyword). */
    public static long number(List<String> t, int i, String label, long min, long max) throws BadLine {
        String allowed = "allowed " + min + ".." + max;
        if (i >= t.size()) {
            throw new BadLine(label + ": missing value, " + allowed);
        }
        String s = t.get(i);
        if (!s.matches("[0-9]{1,19}")) {
            throw new BadLine(label + " " + s + ": not a number, " + allowed);
        }
        long v;
        try {
            v = Long.parseLong(s);
        } catch (NumberFormatException e) {
            v = Long.MAX_VALUE;
        }
        if (v < min || v > max) {
            throw new BadLine(label + " " + s + ": out of range, " + allowed);
        }
        return v;
    }

    public static int integer(List<String> t, int i, String label, int min, int max) throws BadLine {
        return (int) number(t, i, label, min, max);
    }

    /** Token {@code i} as an IPv4 address in network order. */
    public static int ipv4(List<String> t, int i, String label) throws BadLine {
        InetAddress a = address(t, i, label);
        byte[] b = a.getAddress();
        if (b.length != 4) {
            throw new BadLine(label + " " + t.get(i) + ": not an IPv4 address");
        }
        return ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
    }

    /** Token {@code i} as an IPv4 or IPv6 literal; never a host name, so parsing never touches DNS. */
    public static InetAddress address(List<String> t, int i, String label) throws BadLine {
        if (i >= t.size()) {
            throw new BadLine(label + ": missing IP address (IPv4 or IPv6)");
        }
        InetAddress a = parseAddress(t.get(i));
        if (a == null) {
            throw new BadLine(label + " " + t.get(i) + ": not an IP address (IPv4 or IPv6)" + portHint(t.get(i)));
        }
        return a;
    }

    /**
     * For {@code 127.0.0.1:8080} or {@code [::1]:8080}, which operators write from habit: the
     * address and port are separate words in this language, as in IOS.
     */
    private static String portHint(String s) {
        int colon = s.lastIndexOf(':');
        if (colon <= 0 || !s.substring(colon + 1).matches("[0-9]{1,5}")) {
            return "";
        }
        String host = s.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return parseAddress(host) == null ? "" : "; the port is a word of its own: '" + host + " " + s.substring(colon + 1) + "'";
    }

    /** An IPv4 dotted quad or an IPv6 literal, else null. */
    public static InetAddress parseAddress(String s) {
        boolean v4 = s.matches("(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");
        boolean v6 = s.indexOf(':') >= 0 && s.matches("[0-9A-Fa-f:.]+");
        if (!v4 && !v6) {
            return null;
        }
        try {
            // a literal of only hex digits, colons and dots is never resolved through DNS
            return InetAddress.getByName(s);
        } catch (UnknownHostException | IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * A network mask as a prefix length: a contiguous dotted IPv4 mask ({@code 255.255.255.0}) or
     * {@code /N}; {@code maxPrefix} is 32 for IPv4 and 128 for IPv6.
     */
    public static int prefix(String s, String label, int maxPrefix) throws BadLine {
        if (s.startsWith("/")) {
            if (!s.matches("/[0-9]{1,3}") || Integer.parseInt(s.substring(1)) > maxPrefix) {
                throw new BadLine(label + " " + s + ": not a prefix length, allowed /0../" + maxPrefix);
            }
            return Integer.parseInt(s.substring(1));
        }
        InetAddress a = s.indexOf(':') < 0 ? parseAddress(s) : null;
        if (a == null) {
            throw new BadLine(label + " " + s + ": not a network mask, allowed a dotted IPv4 mask or /prefix");
        }
        byte[] b = a.getAddress();
        long bits = ((b[0] & 0xffL) << 24) | ((b[1] & 0xffL) << 16) | ((b[2] & 0xffL) << 8) | (b[3] & 0xffL);
        int len = Long.numberOfLeadingZeros(~bits & 0xffff_ffffL) - 32;
        long contiguous = len == 0 ? 0 : (0xffff_ffffL << (32 - len)) & 0xffff_ffffL;
        if (bits != contiguous) {
            throw new BadLine(label + " " + s + ": not a contiguous network mask, allowed e.g. 255.255.255.0 or /24");
        }
        if (len > maxPrefix) {
            throw new BadLine(label + " " + s + ": longer than the address, allowed /0../" + maxPrefix);
        }
        return len;
    }

    /** The dotted form of an IPv4 prefix length, as IOS writes masks. */
    public static String dottedMask(int prefix) {
        long bits = prefix == 0 ? 0 : (0xffff_ffffL << (32 - prefix)) & 0xffff_ffffL;
        return ((bits >> 24) & 0xff) + "." + ((bits >> 16) & 0xff) + "." + ((bits >> 8) & 0xff) + "." + (bits & 0xff);
    }

    /**
     * An IOS secret that ends the line, starting at token {@code i} (just after its keyword
     * {@code key}, {@code password} or {@code key-string}): {@code 0 SECRET}, {@code 7 HEX}
     * ({@link CiscoType7}) or {@code SECRET}. Returns the clear text; a message never holds it.
     *
     * @param label names the line, e.g. {@code mclb radius key}
     */
    public static String secret(List<String> t, int i, String label) throws BadLine {
        int n = t.size() - i;
        String kw = i > 0 ? t.get(i - 1) : "key";
        boolean typed = n >= 1 && (t.get(i).equals("0") || t.get(i).equals("7"));
        if (typed && n == 1) {
            throw new BadLine(label + ": missing secret after '" + kw + " " + t.get(i) + "'");
        }
        if (n < 1 || n > 2 || (n == 2 && !typed)) {
            throw new BadLine(label + ": expected '" + kw + " 0|7 SECRET' at the end of the line");
        }
        if (typed && t.get(i).equals("7")) {
            try {
                return CiscoType7.decode(t.get(i + 1).strip());
            } catch (IllegalArgumentException e) {
                throw new BadLine(label + ": bad type 7 secret: " + e.getMessage());
            }
        }
        return typed ? t.get(i + 1) : t.get(i);
    }

    /**
     * The line with its secret (the tokens from {@code i} on, as read by {@link #secret}) stored as
     * {@code 7 <obfuscated>}, so {@code show running-config} never prints it in clear. The seed is
     * fixed per secret: the stored line stays the same across reloads (reload diffs compare tokens).
     */
    public static List<String> withType7Secret(List<String> t, int i, String clear) {
        List<String> out = new java.util.ArrayList<>(t.subList(0, i));
        out.add("7");
        out.add(CiscoType7.encode(clear, Math.floorMod(clear.hashCode(), 16)));
        return out;
    }

    /** Fails when the line has tokens after index {@code last}. */
    public static void end(List<String> t, int last, String label) throws BadLine {
        if (t.size() > last + 1) {
            throw new BadLine(label + ": unexpected '" + String.join(" ", t.subList(last + 1, t.size())) + "'");
        }
    }

    /** The address as a literal, never a host name. */
    public static String text(InetAddress a) {
        String s = a.getHostAddress();
        if (!(a instanceof java.net.Inet6Address) || s.indexOf('%') >= 0) {
            return s;
        }
        // RFC 5952: the longest run (two or more) of zero groups becomes "::"
        String[] g = s.split(":");
        int bestAt = -1;
        int bestLen = 1;
        for (int i = 0; i < g.length; i++) {
            int j = i;
            while (j < g.length && g[j].equals("0")) {
                j++;
            }
            if (j - i > bestLen) {
                bestAt = i;
                bestLen = j - i;
            }
        }
        if (bestAt < 0) {
            return s;
        }
        String head = String.join(":", java.util.Arrays.copyOfRange(g, 0, bestAt));
        String tail = String.join(":", java.util.Arrays.copyOfRange(g, bestAt + bestLen, g.length));
        return head + "::" + tail;
    }
}
