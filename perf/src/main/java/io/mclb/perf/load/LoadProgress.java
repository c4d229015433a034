package io.mclb.perf.load;

/**
 * What a {@link LoadDriver} needs of a protocol's snapshot to tell when a run has ended: the
 * generators' snapshot records implement it with their own {@code sending} and {@code inFlight}
 * components.
 */
public interface LoadProgress {
    /** Whether the snapshot was taken while the driver was still sending. */
    boolean sending();

    /** Requests sent and neither answered nor timed out yet. */
    long inFlight();
}
