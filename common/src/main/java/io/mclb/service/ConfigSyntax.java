package io.mclb.service;

import io.mclb.config.BadLine;
import io.mclb.config.ConfigBlock;
import io.mclb.config.ConfigLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.SourceRef;

import java.util.List;
import java.util.Objects;

/**
 * How a protocol or HA module adds configuration lines without the engine knowing them (found
 * through {@link java.util.ServiceLoader} or registered by the wiring in deploy).
 *
 * <p>Config is parsed once: the parser tries its own grammar first, then offers an unknown line to
 * every extension in turn. A module that claims a line turns it into an immutable record (with the
 * line's {@link SourceRef} when its rules need to point at it), which is stored with the line as an
 * {@link io.mclb.config.ExtensionLine} on the object it sits in (or globally) and handed to the
 * module's runtime code: runtime code reads records ({@code config.records(Type.class)}), never
 * tokens by position. {@code show running-config} writes the stored tokens back. Read values
 * with {@link io.mclb.config.Args}; a bad value is a {@link BadLine} naming it and what is allowed.
 */
public interface ConfigSyntax {

    /** Short name stored in {@link io.mclb.config.ExtensionLine#owner()}, e.g. "gtp", "radius", "ha". */
    String owner();

    /**
     * Offered a line the engine does not know.
     *
     * @param block where the line sits
     * @return {@link Claim#notMine()} to pass, or a claim with the line's record
     * @throws BadLine the line is this module's but its value is wrong
     */
    Claim claimLine(ConfigBlock block, ConfigLine line) throws BadLine;

    /**
     * Offered a top-level line that opens a block the engine does not know (e.g. {@code interface
     * veth-a}, {@code route-map NAME permit 10}); if claimed, its indented sub-lines are kept with
     * it. Default: not mine.
     */
    default Claim claimStanza(ConfigLine header, List<ConfigLine> children) throws BadLine {
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
     * The ports an all-ports virtual server ({@code virtual IP udp 0 service SVC}) listens on for
     * {@code service} (GTP: v1 2123 and v0 3386); empty when the service takes no all-ports form.
     */
    default List<Integer> allPorts(String service) {
        return List.of();
    }

    /**
     * The first words of this module's lines in {@code block}, so that a mistyped one can be
     * answered with the nearest ({@code wieght} -> {@code weight}). Default none.
     */
    default List<String> keywords(ConfigBlock block) {
        return List.of();
    }

    /**
     * The answer to an offered line.
     *
     * @param record         the line's typed, immutable value (null only for {@link #notMine()})
     * @param stored         the tokens to keep instead of the line as written (e.g. a secret as
     *                       {@code key 7 <obfuscated>}, so {@code show running-config} never prints
     *                       it in clear), or null to keep the line as written
     * @param storedChildren the same for a stanza's sub-lines, or null
     * @param changedMeaning for an IOS line mclb takes with another meaning than IOS gives it (an
     *                       operator migrating must know), what differs; null when it is as IOS
     */
    record Claim(Object record, List<String> stored, List<List<String>> storedChildren, String changedMeaning) {
        private static final Claim NOT_MINE = new Claim(null, null, null, null);

        public static Claim notMine() {
            return NOT_MINE;
        }

        /** Keeps the line as written, with its record. */
        public static Claim of(Object record) {
            return new Claim(Objects.requireNonNull(record, "record"), null, null, null);
        }

        /** Keeps the line stored as {@code tokens} (e.g. with its secret obfuscated). */
        public static Claim of(Object record, List<String> tokens) {
            return new Claim(Objects.requireNonNull(record, "record"), tokens, null, null);
        }

        /** Keeps a stanza stored as {@code header} and {@code children} (either may be null: as written). */
        public static Claim stanza(Object record, List<String> header, List<List<String>> children) {
            return new Claim(Objects.requireNonNull(record, "record"), header, children, null);
        }

        /** This claim, for a line mclb takes with another meaning than IOS: {@code why} says what differs. */
        public Claim changedMeaning(String why) {
            return new Claim(record, stored, storedChildren, why);
        }

        public boolean claimed() {
            return record != null;
        }
    }

    /** Collects errors and warnings during validation. */
    interface ErrorSink {
        void error(SourceRef at, String message);

        void warning(SourceRef at, String message);
    }
}
