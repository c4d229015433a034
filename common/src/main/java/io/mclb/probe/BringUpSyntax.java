package io.mclb.probe;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.ConfigBlock;
import io.mclb.config.ConfigLine;
import io.mclb.config.MclbConfig;
import io.mclb.service.ConfigSyntax;

import java.util.List;

/**
 * The global line {@code mclb probe bring-up [max-checks N] [cycle-ms MS]} (an engine line the
 * IOS grammar lacks), parsed once into {@link BringUpSettings}; at most one such line.
 */
public final class BringUpSyntax implements ConfigSyntax {
    public static final String OWNER = "probe-bring-up";
    private static final String USAGE = "allowed 'mclb probe bring-up [max-checks N] [cycle-ms MS]'";

    @Override
    public String owner() {
        return OWNER;
    }

    @Override
    public Claim claimLine(ConfigBlock block, ConfigLine line) throws BadLine {
        if (block != ConfigBlock.GLOBAL || !line.is(0, "mclb") || !line.is(1, "probe")) {
            return Claim.notMine();
        }
        List<String> t = line.tokens();
        if (!line.is(2, "bring-up")) {
            throw new BadLine("mclb probe" + (t.size() > 2 ? " " + t.get(2) : "") + ": unknown setting, " + USAGE);
        }
        int max = BringUpSettings.DEFAULT.maxChecks();
        int cycle = BringUpSettings.DEFAULT.cycleMs();
        for (int i = 3; i < t.size(); i += 2) {
            if (line.is(i, "max-checks")) {
                max = Args.integer(t, i + 1, "mclb probe bring-up max-checks", 1, 10_000);
            } else if (line.is(i, "cycle-ms")) {
                cycle = Args.integer(t, i + 1, "mclb probe bring-up cycle-ms", 10, 60_000);
            } else {
                throw new BadLine("mclb probe bring-up " + t.get(i) + ": unknown setting, " + USAGE);
            }
        }
        return Claim.of(new BringUpSettings(max, cycle));
    }

    @Override
    public void validate(MclbConfig config, ErrorSink errors) {
        var lines = config.globalExtensions(OWNER);
        for (int i = 1; i < lines.size(); i++) {
            errors.error(lines.get(i).source(), "mclb probe bring-up: given twice, first at line "
                    + lines.get(0).source().line());
        }
    }

    /** The configuration's settings, or the defaults. */
    public static BringUpSettings of(MclbConfig config) {
        List<BringUpSettings> all = config.records(BringUpSettings.class);
        return all.isEmpty() ? BringUpSettings.DEFAULT : all.get(0);
    }
}
