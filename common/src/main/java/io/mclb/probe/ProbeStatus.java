package io.mclb.probe;

/**
 * One probe on one real, as {@code show probe} prints it.
 *
 * @param lastResult  {@code success}, {@code failure}, {@code timeout}, or {@code none} before the first run
 * @param lastReason  why the last run failed, empty after a pass
 * @param lastRttNs   round trip of the last passed run, -1 before one
 * @param failed      whether this probe holds the real PROBE_FAILED
 */
public record ProbeStatus(String probe, String type, String farm, String real, String lastResult,
                          String lastReason, long lastRttNs, int consecutiveFailures, boolean failed) {
}
