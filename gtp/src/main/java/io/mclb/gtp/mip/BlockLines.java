package io.mclb.gtp.mip;

import io.mclb.config.ConfigError;
import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.ServerFarmConfig;
import io.mclb.config.SourceRef;
import io.mclb.config.VirtualServerConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where IOS lines that the Home Agent Director forbids sit in a farm or vserver block, whether a
 * module claimed them (e.g. {@code replicate casa} by the HA module, kept as an extension line) or
 * the engine accepted and ignored them with a warning (e.g. {@code bindid} today). An ignored line
 * keeps no record, only its warning, so it is attributed to the block whose header is the nearest
 * before it: an ignored line can only sit directly in a farm or vserver block (a real ignores
 * nothing), so that header is its block's. Read at validation only.
 */
final class BlockLines {
    private BlockLines() {
    }

    /** Where {@code keyword} lines of farm {@code f} are. */
    static List<SourceRef> inFarm(MclbConfig config, ServerFarmConfig f, String keyword) {
        return find(config, f.extensions(), f.source(), keyword);
    }

    /** Where {@code keyword} lines of vserver {@code v} are. */
    static List<SourceRef> inVserver(MclbConfig config, VirtualServerConfig v, String keyword) {
        return find(config, v.extensions(), v.source(), keyword);
    }

    private static List<SourceRef> find(MclbConfig config, List<ExtensionLine> claimed, SourceRef header,
                                        String keyword) {
        List<SourceRef> out = new ArrayList<>();
        for (ExtensionLine x : claimed) {
            if (!x.tokens().isEmpty() && x.tokens().get(0).equalsIgnoreCase(keyword)) {
                out.add(x.source());
            }
        }
        String ignored = "ignored '" + keyword.toLowerCase(Locale.ROOT);
        for (ConfigError w : config.warnings()) {
            if (w.warning() && w.message().toLowerCase(Locale.ROOT).startsWith(ignored)
                    && w.file().equals(header.file()) && header.line() == headerBefore(config, w.line())) {
                out.add(new SourceRef(w.file(), w.line()));
            }
        }
        return out;
    }

    /** The line of the farm or vserver header nearest before {@code line}. */
    private static int headerBefore(MclbConfig config, int line) {
        int best = -1;
        for (ServerFarmConfig f : config.farms().values()) {
            int l = f.source().line();
            if (l < line && l > best) {
                best = l;
            }
        }
        for (VirtualServerConfig v : config.vservers().values()) {
            int l = v.source().line();
            if (l < line && l > best) {
                best = l;
            }
        }
        return best;
    }
}
