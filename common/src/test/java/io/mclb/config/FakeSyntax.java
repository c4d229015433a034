package io.mclb.config;

import io.mclb.service.ConfigSyntax;

import java.util.List;

/**
 * A stand-in protocol module: service {@code fake-svc}, the vserver line {@code sticky fake key},
 * the farm line {@code failaction fake purge}, and top-level {@code route-map NAME permit N} stanzas.
 * Its records are the claimed lines themselves.
 */
final class FakeSyntax implements ConfigSyntax {

    @Override
    public String owner() {
        return "fake";
    }

    @Override
    public Claim claimLine(ConfigBlock block, ConfigLine line) throws BadLine {
        List<String> tokens = line.tokens();
        if (block == ConfigBlock.VSERVER && tokens.size() >= 2 && tokens.get(0).equals("sticky")
                && tokens.get(1).equals("fake")) {
            if (!tokens.equals(List.of("sticky", "fake", "key"))) {
                throw new BadLine(String.join(" ", tokens) + ": allowed 'sticky fake key'");
            }
            return Claim.of(line);
        }
        if (block == ConfigBlock.SERVERFARM && tokens.equals(List.of("failaction", "fake", "purge"))) {
            return Claim.of(line);
        }
        return Claim.notMine();
    }

    @Override
    public Claim claimStanza(ConfigLine header, List<ConfigLine> children) {
        List<String> h = header.tokens();
        if (h.size() == 4 && h.get(0).equals("route-map") && h.get(2).equals("permit")) {
            return Claim.of(header);
        }
        return Claim.notMine();
    }

    @Override
    public void validate(MclbConfig config, ErrorSink errors) {
        for (VirtualServerConfig v : config.vservers().values()) {
            boolean fakeSticky = v.extensions().stream().anyMatch(x -> x.text().equals("sticky fake key"));
            if (fakeSticky && !"fake-svc".equals(v.service())) {
                errors.error(v.source(), "vserver " + v.name() + ": 'sticky fake key' needs service fake-svc");
            }
        }
    }

    @Override
    public List<String> services() {
        return List.of("fake-svc");
    }
}
