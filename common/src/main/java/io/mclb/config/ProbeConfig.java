package io.mclb.config;

/**
 * {@code ip slb probe NAME TYPE} with its sub-lines: the engine reads the timing lines every type
 * shares ({@code interval S}, {@code faildetect N}, {@code timeout S}); the type's own lines are
 * parsed by its {@link io.mclb.service.ProbeFactory} into {@code settings}.
 *
 * @param intervalSeconds one check per interval, counted from the previous check's start
 * @param faildetect      consecutive failed checks that fail a real for this probe
 * @param timeoutSeconds  how long one check waits for its answer; at most the interval
 * @param settings        the type's own immutable settings record
 */
public record ProbeConfig(String name, String type, int intervalSeconds, int faildetect, int timeoutSeconds,
                          Object settings, SourceRef source) {

    /** The typed settings, for the probe type's own code. */
    public <T> T settings(Class<T> type) {
        return type.cast(settings);
    }
}
