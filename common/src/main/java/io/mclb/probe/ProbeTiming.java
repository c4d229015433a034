package io.mclb.probe;

/**
 * A probe type's defaults for the timing lines every probe stanza takes.
 *
 * @param intervalSeconds {@code interval S}: one check per interval
 * @param faildetect      {@code faildetect N}: consecutive failures that fail a real
 * @param timeoutSeconds  {@code timeout S}: how long one check waits (capped at the interval)
 */
public record ProbeTiming(int intervalSeconds, int faildetect, int timeoutSeconds) {
    /** Where IOS gives no default: interval 10 s, faildetect 3, timeout 5 s. */
    public static final ProbeTiming DEFAULT = new ProbeTiming(10, 3, 5);
}
