package io.mclb.probe;

import io.mclb.config.BadLine;
import io.mclb.config.ConfigLine;
import io.mclb.config.ProbeConfig;
import io.mclb.farm.RealServer;
import io.mclb.service.ProbeFactory;

import java.util.List;
import java.util.function.BiPredicate;

/**
 * A probe type for tests, {@code ip slb probe NAME switch} (no lines of its own): each check
 * passes at once while {@code passes} says so for its probe and real, and fails with
 * "PROBE says no" otherwise; the test flips the answer.
 */
final class SwitchProbe implements ProbeFactory {
    private final BiPredicate<ProbeConfig, RealServer> passes;

    SwitchProbe(BiPredicate<ProbeConfig, RealServer> passes) {
        this.passes = passes;
    }

    @Override
    public String type() {
        return "switch";
    }

    @Override
    public Parsed parse(ConfigLine header, List<ConfigLine> lines) throws BadLine {
        if (!lines.isEmpty()) {
            throw new BadLine("probe " + header.get(3) + ": no lines of its own, got '" + lines.get(0).text() + "'");
        }
        return Parsed.of("switch");
    }

    @Override
    public ProbeCheck newCheck(ProbeConfig probe, RealServer real, ProbeContext ctx) {
        return new ProbeCheck() {
            @Override
            public void run(ProbeResult result) {
                if (passes.test(probe, real)) {
                    result.pass();
                } else {
                    result.fail(probe.name() + " says no");
                }
            }

            @Override
            public void close() {
            }
        };
    }
}
