package io.mclb.ha;

/**
 * Decodes IOS "type 7" passwords (an XOR with a published constant: obfuscation, not encryption),
 * so {@code key-string 7 ...} lines copied from IOS work. Same algorithm as the radius module's
 * copy; duplicated because HA may not depend on a protocol module (DESIGN section 2).
 */
final class CiscoType7 {
    private static final String XLAT = "dsfd;kfoA,.iyewrkldJKDHSUBsgvca69834ncxv9873254k;fg87";

    private CiscoType7() {
    }

    static String decode(String s) {
        if (s.length() < 4 || s.length() % 2 != 0 || !s.matches("[0-9A-Fa-f]+")) {
            throw new IllegalArgumentException("key-string 7 " + "***" + ": not a type 7 string (two decimal digits then hex pairs)");
        }
        int seed = Integer.parseInt(s.substring(0, 2));
        if (seed > 15) {
            throw new IllegalArgumentException("key-string 7 ***: seed " + seed + " out of range, allowed 00..15");
        }
        StringBuilder out = new StringBuilder();
        for (int i = 2; i < s.length(); i += 2) {
            int c = Integer.parseInt(s.substring(i, i + 2), 16);
            out.append((char) (c ^ XLAT.charAt((seed + (i - 2) / 2) % XLAT.length())));
        }
        return out.toString();
    }
}
