package io.mclb.perf.load;

/**
 * A generator setting outside what it allows, by the setting's name, so that a command line can
 * say it with its own option name instead of the builder's.
 */
public final class SettingOutOfRange extends IllegalArgumentException {
    private final String setting;
    private final long min;
    private final long max;
    private final long value;

    public SettingOutOfRange(String setting, long value, long min, long max) {
        super(describe(setting, value, min, max));
        this.setting = setting;
        this.min = min;
        this.max = max;
        this.value = value;
    }

    /** The builder's name of the setting, e.g. {@code sockets}. */
    public String setting() {
        return setting;
    }

    /** The message with {@code name} in place of the builder's name of the setting. */
    public String describedAs(String name) {
        return describe(name, value, min, max);
    }

    private static String describe(String name, long value, long min, long max) {
        return name + " must be in " + min + ".." + max + ": " + value;
    }
}
