package io.mclb.config;

/**
 * Cisco IOS "type 7" obfuscation of config passwords ({@code key 7 0822455D0A16}): two decimal
 * digits give a start index into a fixed 53-character translation string, then each character is
 * two hex digits XORed with successive translation characters. It is reversible by anyone; it
 * only keeps secrets out of casual sight. Algorithm and translation string checked against
 * binaria.co.uk "How does the Cisco type 7 password algorithm work" and the l0pht note (both
 * found via the tool library, pages corpus); vectors: {@code 0822455D0A16} = "cisco"
 * (G. Hoffman's key-chain demonstration), {@code 08204E} = "ab", {@code 104F0B1A011214} = "abcdef"
 * (l0pht). IOS picks seeds 0..15; any 0..52 decodes.
 *
 * <p>Part of the configuration language (every {@code key|password|key-string 0|7 ...} line of
 * every module uses it), so it lives here once rather than in each module.
 */
public final class CiscoType7 {
    private static final String XLAT = "dsfd;kfoA,.iyewrkldJKDHSUBsgvca69834ncxv9873254k;fg87";

    private CiscoType7() {
    }

    /** Decodes {@code hex}; throws {@link IllegalArgumentException} if it is not a type 7 string. */
    public static String decode(String hex) {
        if (hex.length() < 2 || hex.length() % 2 != 0) {
            throw new IllegalArgumentException("type 7 string must be 2 decimal digits then hex pairs, got "
                    + hex.length() + " characters");
        }
        int seed;
        try {
            seed = Integer.parseInt(hex.substring(0, 2));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("type 7 string must start with 2 decimal digits (00..52)");
        }
        if (seed >= XLAT.length()) {
            throw new IllegalArgumentException("type 7 seed must be 00..52, got " + seed);
        }
        StringBuilder out = new StringBuilder((hex.length() - 2) / 2);
        for (int i = 2, k = seed; i < hex.length(); i += 2, k++) {
            int hi = Character.digit(hex.charAt(i), 16);
            int lo = Character.digit(hex.charAt(i + 1), 16);
            if (hi < 0 || lo < 0) {
                throw new IllegalArgumentException("type 7 string has a non-hex character at " + i);
            }
            out.append((char) (((hi << 4) | lo) ^ XLAT.charAt(k % XLAT.length())));
        }
        return out.toString();
    }

    /** Encodes {@code clear} (characters 0..255) with start index {@code seed} (0..52; IOS uses 0..15). */
    public static String encode(String clear, int seed) {
        if (seed < 0 || seed >= XLAT.length()) {
            throw new IllegalArgumentException("type 7 seed must be 0..52, got " + seed);
        }
        StringBuilder out = new StringBuilder(2 + clear.length() * 2);
        out.append(seed / 10).append(seed % 10);
        for (int i = 0; i < clear.length(); i++) {
            char c = clear.charAt(i);
            if (c > 0xff) {
                throw new IllegalArgumentException("type 7 can only carry 8-bit characters");
            }
            int x = c ^ XLAT.charAt((seed + i) % XLAT.length());
            out.append(Character.toUpperCase(Character.forDigit(x >> 4, 16)))
               .append(Character.toUpperCase(Character.forDigit(x & 0xf, 16)));
        }
        return out.toString();
    }
}
