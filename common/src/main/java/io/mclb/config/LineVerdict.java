package io.mclb.config;

/**
 * How mclb takes one line of a configuration file: the rows of {@code mclb check --migrate}.
 *
 * @param kind the verdict
 * @param note what differs, why it is ignored or unsupported, or the error; empty for plain lines
 */
public record LineVerdict(Kind kind, String note) {
    public enum Kind {
        /** An IOS line mclb takes as IOS does. */
        IOS("as IOS"),
        /** An mclb line (not IOS): the admin listener, the data directory, secrets for RADIUS. */
        MCLB("mclb"),
        /** An IOS line mclb takes with another meaning: the note says what differs. */
        CHANGED("changed meaning"),
        /** An IOS line that does not apply to mclb (a warning): the note says why. */
        IGNORED("ignored"),
        /** A known IOS line this build does not support (an error): the note says why. */
        UNSUPPORTED("unsupported"),
        /** A line with an error: the note is the message. */
        ERROR("error"),
        /** A comment or blank line. */
        NONE("");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }
}
