package io.mclb.radius.lb;

import io.mclb.radius.codec.RadiusSecret;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Token helpers for the RADIUS configuration lines: literal addresses (never a DNS lookup),
 * masks, numbers and IOS {@code key 0|7 SECRET} values. Config time only; failures throw
 * {@link IllegalArgumentException} with a message naming the value and what is allowed (it becomes
 * the configuration error, so it must never contain a secret).
 */
final class ConfigTokens {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private ConfigTokens() {
    }

    static boolean is(List<String> t, int i, String word) {
        return i < t.size() && t.get(i).equalsIgnoreCase(word);
    }

    static String lower(List<String> t, int i) {
        return i < t.size() ? t.get(i).toLowerCase(Locale.ROOT) : "";
    }

    /** A literal IPv4 or IPv6 address. */
    static InetAddress address(String s, String label) {
        boolean v4 = IPV4.matcher(s).matches();
        if (!v4 && !s.contains(":")) {
            throw new IllegalArgumentException(label + ": '" + s + "' is not an IP address");
        }
        try {
            InetAddress a = InetAddress.getByName(s);
            if (v4) {
                for (String part : s.split("\\.")) {
                    if (Integer.parseInt(part) > 255) {
                        throw new IllegalArgumentException(label + ": '" + s + "' is not an IP address");
                    }
                }
            }
            return a;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(label + ": '" + s + "' is not an IP address");
        }
    }

    static int ipv4(String s, String label) {
        InetAddress a = address(s, label);
        byte[] b = a.getAddress();
        if (b.length != 4) {
            throw new IllegalArgumentException(label + ": '" + s + "' must be an IPv4 address");
        }
        return ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
    }

    /** A dotted mask (contiguous ones) or a prefix length as a prefix length. */
    static int prefix(String s, int maxBits, String label) {
        if (s.matches("\\d{1,3}") ) {
            int p = Integer.parseInt(s);
            if (p <= maxBits) {
                return p;
            }
        } else if (maxBits == 32 && IPV4.matcher(s).matches()) {
            int m = ipv4(s, label);
            int p = Integer.bitCount(m);
            if (p == 0 ? m == 0 : m == (-1 << (32 - p))) {
                return p;
            }
        }
        throw new IllegalArgumentException(label + ": '" + s + "' is not a contiguous mask or prefix length 0.."
                + maxBits);
    }

    static int integer(List<String> t, int i, String label, int min, int max) {
        if (i >= t.size()) {
            throw new IllegalArgumentException(label + ": missing number " + min + ".." + max);
        }
        try {
            int v = Integer.parseInt(t.get(i));
            if (v >= min && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(label + ": '" + t.get(i) + "' is not a number " + min + ".." + max);
    }

    static void end(List<String> t, int last, String label) {
        if (t.size() > last + 1) {
            throw new IllegalArgumentException(label + ": unexpected '" + t.get(last + 1) + "'");
        }
    }

    /**
     * Parses {@code key 0 SECRET}, {@code key 7 HEX} or {@code key SECRET} starting at the word
     * {@code key} (index {@code i}), which must end the line.
     */
    static RadiusSecret key(List<String> t, int i, String label) {
        if (!is(t, i, "key") && !is(t, i, "password")) {
            throw new IllegalArgumentException(label + ": expected 'key 0|7 SECRET'");
        }
        int n = t.size() - i - 1;
        if (n == 2 && (t.get(i + 1).equals("0") || t.get(i + 1).equals("7"))) {
            return RadiusSecret.parseKey(t.get(i + 1) + " " + t.get(i + 2));
        }
        if (n == 1 && (t.get(i + 1).equals("0") || t.get(i + 1).equals("7"))) {
            throw new IllegalArgumentException(label + ": missing secret after '" + t.get(i) + " " + t.get(i + 1) + "'");
        }
        if (n == 1) {
            return RadiusSecret.parseKey("0 " + t.get(i + 1));
        }
        throw new IllegalArgumentException(label + ": expected '" + t.get(i) + " 0|7 SECRET' at the end of the line");
    }

    /** The line with the secret after {@code key}/{@code password} (index {@code i}) written as {@code 7 <obfuscated>}. */
    static List<String> obfuscated(List<String> t, int i, RadiusSecret secret) {
        List<String> out = new ArrayList<>(t.subList(0, i + 1));
        out.add("7");
        // a seed fixed per secret keeps the stored line stable across reloads (reload diffs compare tokens)
        out.add(secret.toType7(Math.floorMod(secret.hashCode(), 16)));
        return out;
    }
}
