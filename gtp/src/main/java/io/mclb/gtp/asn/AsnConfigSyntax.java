package io.mclb.gtp.asn;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.ConfigBlock;
import io.mclb.config.ConfigLine;
import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.VirtualServerConfig;
import io.mclb.service.ConfigSyntax;

import java.util.List;

/**
 * The ASN gateway service's lines (gtp/README.md), read once into {@link AsnLines} records:
 * {@code service asn}; vserver {@code sticky asn msid [group N]}, {@code idle asn request S},
 * {@code idle asn msid S}; farm {@code failaction asn purge}. Rule: the vserver lines need
 * {@code service asn}. The farm may balance by weighted round robin or by least connections
 * (active MSIDs per gateway). Stateless.
 */
public final class AsnConfigSyntax implements ConfigSyntax {
    public static final String OWNER = "asn";
    public static final String SERVICE = "asn";

    @Override
    public String owner() {
        return OWNER;
    }

    @Override
    public List<String> services() {
        return List.of(SERVICE);
    }

    @Override
    public Claim claimLine(ConfigBlock block, ConfigLine l) throws BadLine {
        if (block == ConfigBlock.SERVERFARM && l.is(0, "failaction") && l.is(1, "asn")) {
            if (l.size() == 3 && l.is(2, "purge")) {
                return Claim.of(new AsnLines.FailactionPurge());
            }
            throw new BadLine("expected 'failaction asn purge'");
        }
        if (block != ConfigBlock.VSERVER || !l.is(1, "asn")) {
            return Claim.notMine();
        }
        List<String> t = l.tokens();
        if (l.is(0, "sticky")) {
            if (!l.is(2, "msid") || !(t.size() == 3 || (t.size() == 5 && l.is(3, "group")))) {
                throw new BadLine("expected 'sticky asn msid [group N]'");
            }
            return Claim.of(new AsnLines.StickyMsid(t.size() == 5 ? Args.integer(t, 4, "sticky asn msid group", 0, 32767)
                    : 0));
        }
        if (l.is(0, "idle")) {
            if (t.size() != 4 || !(l.is(2, "request") || l.is(2, "msid"))) {
                throw new BadLine("expected 'idle asn request SECONDS' or 'idle asn msid SECONDS' (1..65535)");
            }
            int s = Args.integer(t, 3, "idle asn " + t.get(2), 1, 65535);
            return Claim.of(l.is(2, "request") ? new AsnLines.IdleRequest(s) : new AsnLines.IdleMsid(s));
        }
        return Claim.notMine();
    }

    @Override
    public void validate(MclbConfig config, ErrorSink errors) {
        for (VirtualServerConfig v : config.vservers().values()) {
            if (SERVICE.equals(v.service())) {
                continue;
            }
            for (ExtensionLine x : v.extensions()) {
                if (x.owner().equals(OWNER)) {
                    errors.error(x.source(), "'" + x.text() + "' needs 'service asn' on vserver " + v.name());
                }
            }
        }
    }
}
