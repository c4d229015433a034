package io.mclb.config;

import java.util.List;

/**
 * How a protocol or HA module adds configuration lines without the engine knowing them
 * (found through {@link java.util.ServiceLoader} or registered by the wiring in deploy).
 *
 * <p>The parser first tries its own grammar; a line it does not know is offered to every
 * extension in turn. A claimed line is stored as an {@link ExtensionLine} on the object it sits
 * in (or globally) and written back by {@code show running-config}.
 */
public interface ConfigSyntax {

    /** Short name stored in {@link ExtensionLine#owner()}, e.g. "gtp", "radius", "ha". */
    String owner();

    /**
     * Offered a line the engine does not know.
     *
     * @param block  where the line sits
     * @param tokens the line split on white space (quoted strings kept whole)
     * @return {@link Claim#notMine()} to pass, {@link Claim#ok()} to keep it, or
     *         {@link Claim#error(String)} naming the offending value and what is allowed
     */
    Claim claimLine(ConfigBlock block, List<String> tokens);

    /**
     * Offered a top-level line that opens a block the engine does not know
     * (e.g. {@code interface veth-a}, {@code route-map NAME permit 10}); if claimed, its
     * indented sub-lines are kept with it. Default: not mine.
     */
    default Claim claimStanza(List<String> header, List<List<String>> children) {
        return Claim.notMine();
    }

    /**
     * Cross-object rules of this module, run after the engine's own validation
     * (e.g. "a GTP virtual server without inspection takes only weighted round robin").
     */
    default void validate(MclbConfig config, ErrorSink errors) {
    }

    /** Names of {@code service} keywords this module serves (e.g. "gtp", "gtp-inspect"). */
    default List<String> services() {
        return List.of();
    }

    /**
     * The answer to an offered line.
     *
     * @param stored   for {@link Kind#OK}: the tokens to keep instead of the line as written (e.g. a
     *                 secret converted to {@code key 7 <obfuscated>} so that {@code show running-config}
     *                 never prints it in clear), or null to keep the line as written
     * @param storedChildren the same for a stanza's sub-lines, or null
     */
    record Claim(Kind kind, String message, List<String> stored, List<List<String>> storedChildren) {
        public enum Kind { NOT_MINE, OK, ERROR }

        public Claim(Kind kind, String message) {
            this(kind, message, null, null);
        }

        /** Keep the line (or stanza), stored as {@code tokens} (and {@code children}, may be null). */
        public static Claim ok(List<String> tokens, List<List<String>> children) {
            return new Claim(Kind.OK, null, tokens, children);
        }

        public static Claim notMine() {
            return new Claim(Kind.NOT_MINE, null);
        }

        public static Claim ok() {
            return new Claim(Kind.OK, null);
        }

        public static Claim error(String message) {
            return new Claim(Kind.ERROR, message);
        }
    }

    /** Collects errors and warnings during validation. */
    interface ErrorSink {
        void error(SourceRef at, String message);

        void warning(SourceRef at, String message);
    }
}
