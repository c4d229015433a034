package io.mclb.probe;

/** Where a {@link ProbeCheck} reports one run; the first report counts, later ones are ignored. */
public interface ProbeResult {
    void pass();

    /** @param reason what was wrong, for {@code show probe detail} and the log; never a secret */
    void fail(String reason);
}
