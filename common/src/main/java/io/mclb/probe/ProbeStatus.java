package io.mclb.probe;

/**
 * One probe on one real, as {@code show probe [detail]} prints it.
 *
 * @param target              where the checks go, e.g. {@code 10.0.0.1:80} or {@code 10.0.0.1 (icmp)}
 * @param state               the probe's verdict on the real: {@code TESTING} until its first pass,
 *                            {@code FAILED} while it fails the real, {@code OPERATIONAL} otherwise
 * @param realState           the real's own state now (all its probes and the rest)
 * @param lastResult          {@code success}, {@code failure}, {@code timeout}, or {@code none} before the first run
 * @param lastReason          why the last run failed, empty after a pass
 * @param lastRttNs           round trip of the last passed run, -1 before one
 * @param failed              whether this probe holds the real PROBE_FAILED
 * @param lastCheckAgeMs      since the last run ended, -1 before one
 */
public record ProbeStatus(String probe, String type, String farm, String real, String target, String state,
                          String realState, String lastResult, String lastReason, long lastRttNs,
                          int consecutiveFailures, boolean failed, int intervalSeconds, int faildetect,
                          int timeoutSeconds, long passes, long failures, long timeouts, long lastCheckAgeMs) {
}
