package io.mclb.config;

import java.util.List;

/**
 * A stand-in protocol module: service {@code fake-svc}, the vserver line {@code sticky fake key},
 * the farm line {@code failaction fake purge}, and top-level {@code route-map NAME permit N} stanzas.
 */
final class FakeSyntax implements ConfigSyntax {

    @Override
    public String owner() {
        return "fake";
    }

    @Override
    public Claim claimLine(ConfigBlock block, List<String> tokens) {
        if (block == ConfigBlock.VSERVER && tokens.size() >= 2 && tokens.get(0).equals("sticky")
                && tokens.get(1).equals("fake")) {
            return tokens.equals(List.of("sticky", "fake", "key")) ? Claim.ok()
                    : Claim.error(String.join(" ", tokens) + ": allowed 'sticky fake key'");
        }
        if (block == ConfigBlock.SERVERFARM && tokens.equals(List.of("failaction", "fake", "purge"))) {
            return Claim.ok();
        }
        return Claim.notMine();
    }

    @Override
    public Claim claimStanza(List<String> header, List<List<String>> children) {
        if (header.size() == 4 && header.get(0).equals("route-map") && header.get(2).equals("permit")) {
            return Claim.ok();
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
