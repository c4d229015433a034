package io.mclb.ha.replication;

import io.mclb.config.BadLine;
import io.mclb.config.ConfigBlock;
import io.mclb.config.ConfigLine;
import io.mclb.service.ConfigSyntax;
import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.SourceRef;
import io.mclb.config.VirtualServerConfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Claims {@code replicate casa ...} in vservers and the global {@code mclb replicate tls ...}.
 *
 * <p>Rules checked in {@link #validate}: every vserver's {@code replicate casa} line is the same
 * (mclb has one sticky table, so one replication stream; IOS set it per vserver), at most one TLS
 * line, the TLS files are readable, and a stream with neither password nor TLS is a warning
 * (anyone reaching the port could feed the standby).
 */
public final class ReplicationConfigSyntax implements ConfigSyntax {
    public static final String OWNER = "ha-replication";

    @Override
    public String owner() {
        return OWNER;
    }

    @Override
    public Claim claimLine(ConfigBlock block, ConfigLine line) throws BadLine {
        List<String> tokens = line.tokens();
        try {
            if (block == ConfigBlock.VSERVER && !tokens.isEmpty() && tokens.get(0).equalsIgnoreCase("replicate")
                    && tokens.size() > 1 && tokens.get(1).equalsIgnoreCase("casa")) {
                ReplicationConfig.parseReplicate(tokens);
                return Claim.of(line);
            }
            if (block == ConfigBlock.GLOBAL && tokens.size() > 1 && tokens.get(0).equalsIgnoreCase("mclb")
                    && tokens.get(1).equalsIgnoreCase("replicate")) {
                ReplicationConfig.parseTls(tokens, null);
                return Claim.of(line);
            }
        } catch (IllegalArgumentException e) {
            throw new BadLine(e.getMessage());
        }
        return Claim.notMine();
    }

    @Override
    public void validate(MclbConfig config, ErrorSink errors) {
        ExtensionLine first = null;
        for (VirtualServerConfig v : config.vservers().values()) {
            for (ExtensionLine x : v.extensions()) {
                if (!x.owner().equals(OWNER)) {
                    continue;
                }
                if (first == null) {
                    first = x;
                } else if (!ReplicationConfig.parseReplicate(x.tokens()).equals(
                        ReplicationConfig.parseReplicate(first.tokens()))) {
                    errors.error(x.source(), "vserver " + v.name() + ": replicate casa differs from line "
                            + first.source().line() + "; all virtual servers share one sticky table and one "
                            + "replication stream, allowed the same replicate casa line in every vserver");
                }
            }
        }
        List<ExtensionLine> tls = config.globalExtensions(OWNER);
        for (int i = 1; i < tls.size(); i++) {
            errors.error(tls.get(i).source(), "mclb replicate tls: given twice, first at line "
                    + tls.get(0).source().line());
        }
        Path base = config.sourceFile() == null ? null : config.sourceFile().toAbsolutePath().getParent();
        if (!tls.isEmpty()) {
            ReplicationConfig.TlsFiles f = ReplicationConfig.parseTls(tls.get(0).tokens(), base);
            readable(tls.get(0).source(), "cert", f.cert(), errors);
            readable(tls.get(0).source(), "key", f.key(), errors);
            readable(tls.get(0).source(), "ca", f.ca(), errors);
            if (first == null) {
                errors.warning(tls.get(0).source(), "mclb replicate tls: no vserver has a replicate casa line");
            }
        }
        if (first != null && tls.isEmpty() && ReplicationConfig.parseReplicate(first.tokens()).password() == null) {
            errors.warning(first.source(), "replicate casa without password or mclb replicate tls: the "
                    + "replication stream is not authenticated");
        }
    }

    private static void readable(SourceRef at, String what, Path p, ErrorSink errors) {
        if (!Files.isReadable(p)) {
            errors.error(at, "mclb replicate tls " + what + " " + p + ": file not readable");
        }
    }
}
