package io.mclb.overload;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.ConfigBlock;
import io.mclb.config.ConfigLine;
import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.VirtualServerConfig;
import io.mclb.overload.OverloadLines.MaxTransactions;
import io.mclb.overload.OverloadLines.SynGuard;
import io.mclb.service.ConfigSyntax;

import java.util.List;

/**
 * Overload control (issue 14 item 7): the virtual server line {@code synguard N [INTERVAL]} and
 * the global {@code mclb max-transactions N}. IOS's synguard counts unanswered TCP SYNs to a
 * virtual server (N 0..4294967295, 0 = off; INTERVAL 50..5000 ms, default 100); mclb keeps the
 * spelling and the ranges and counts new sessions per client address instead, which is what a
 * UDP signalling storm needs ({@link ClientRateLimiter}).
 */
public final class OverloadSyntax implements ConfigSyntax {
    public static final String OWNER = "overload";
    static final String PER_CLIENT = "IOS counts TCP SYNs per virtual server; mclb counts new sessions (GTP creates,"
            + " Access-Requests, accounting Starts, registrations, new UDP flows) per client address, per event loop";

    @Override
    public String owner() {
        return OWNER;
    }

    @Override
    public List<String> keywords(ConfigBlock block) {
        return block == ConfigBlock.VSERVER ? List.of("synguard") : List.of();
    }

    @Override
    public Claim claimLine(ConfigBlock block, ConfigLine line) throws BadLine {
        List<String> t = line.tokens();
        if (block == ConfigBlock.VSERVER && line.is(0, "synguard")) {
            long n = Args.number(t, 1, "synguard", 0, 4_294_967_295L);
            int interval = SynGuard.DEFAULT_INTERVAL_MS;
            if (t.size() > 2) {
                interval = Args.integer(t, 2, "synguard " + n + " interval", 50, 5000);
                Args.end(t, 2, "synguard " + n + " " + interval);
            }
            return Claim.of(new SynGuard(n, interval)).changedMeaning(PER_CLIENT);
        }
        if (block == ConfigBlock.VSERVER && line.is(0, "no") && line.is(1, "synguard")) {
            Args.end(t, 1, "no synguard");
            return Claim.of(SynGuard.OFF);
        }
        if (block == ConfigBlock.GLOBAL && line.is(0, "mclb") && line.is(1, "max-transactions")) {
            int n = Args.integer(t, 2, "mclb max-transactions", 1, 1 << 26);
            Args.end(t, 2, "mclb max-transactions " + n);
            return Claim.of(new MaxTransactions(n));
        }
        return Claim.notMine();
    }

    @Override
    public void validate(MclbConfig config, ErrorSink errors) {
        List<ExtensionLine> caps = config.globalExtensions(OWNER);
        for (int i = 1; i < caps.size(); i++) {
            errors.error(caps.get(i).source(), "mclb max-transactions: given twice, first at line "
                    + caps.get(0).source().line());
        }
    }

    /** The last {@code synguard} line of the virtual server (a later {@code no synguard} turns it off), or off. */
    public static SynGuard synGuard(VirtualServerConfig v) {
        List<SynGuard> s = v.records(SynGuard.class);
        return s.isEmpty() ? SynGuard.OFF : s.get(s.size() - 1);
    }

    /** {@code mclb max-transactions}, or the default. */
    public static MaxTransactions maxTransactions(MclbConfig config) {
        List<MaxTransactions> m = config.records(MaxTransactions.class);
        return m.isEmpty() ? MaxTransactions.DEFAULT : m.get(0);
    }
}
