package io.mclb.service;

import io.mclb.config.BadLine;
import io.mclb.config.ConfigLine;
import io.mclb.config.ProbeConfig;
import io.mclb.farm.RealServer;
import io.mclb.probe.BringUpClass;
import io.mclb.probe.ProbeCheck;
import io.mclb.probe.ProbeContext;
import io.mclb.probe.ProbeTiming;

import java.util.List;

/**
 * A probe type, keyed by the TYPE word of {@code ip slb probe NAME TYPE} (found with
 * {@link java.util.ServiceLoader}, or given by a {@link ServiceModule#probeTypes()}). The engine
 * owns the probe stanza and the farm's {@code probe NAME} lines, the timing sub-lines, the
 * schedule, the timeouts and each real's health ({@link io.mclb.probe.ProbeScheduler}); a type
 * only parses its own sub-lines and does one check's I/O, so a new type is one small class.
 */
public interface ProbeFactory {

    /** The TYPE word, e.g. {@code gtp-echo}, {@code radius}. */
    String type();

    /** interval / faildetect / timeout when the stanza does not set them. */
    default ProbeTiming defaults() {
        return ProbeTiming.DEFAULT;
    }

    /** Which enhanced bring-up budget its first checks count against: TCP types (tcp, http) or the others. */
    default BringUpClass bringUpClass() {
        return BringUpClass.OTHER;
    }

    /**
     * Parses the type's own lines.
     *
     * @param header the stanza's first line ({@code ip slb probe NAME TYPE [ARGS]}); ARGS are the type's
     * @param lines  the sub-lines other than {@code interval}, {@code faildetect} and {@code timeout}
     * @return the settings record and, when a line must not be stored as written (a secret), the
     *         sub-lines to store
     * @throws BadLine a line that is not the type's, or a bad value (name the probe in the message)
     */
    Parsed parse(ConfigLine header, List<ConfigLine> lines) throws BadLine;

    /**
     * The I/O of one check of {@code probe} against {@code real}, run on {@code ctx.loop()}.
     * Called when the probe starts on that real (at start and after a reload that changed it).
     */
    ProbeCheck newCheck(ProbeConfig probe, RealServer real, ProbeContext ctx);

    /**
     * @param settings     the type's immutable settings
     * @param storedLines  the sub-lines (timing lines excluded) to keep in place of those written, or null
     */
    record Parsed(Object settings, List<List<String>> storedLines) {
        public static Parsed of(Object settings) {
            return new Parsed(settings, null);
        }
    }
}
