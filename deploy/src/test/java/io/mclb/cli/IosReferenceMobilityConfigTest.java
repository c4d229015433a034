package io.mclb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reference configurations (c) Home Agent Director and (d) ASN gateway farm of the IOS SLB
 * migration notes (ios-slb-config.md section 5), copied verbatim into test resources, through
 * {@code mclb check} with every module the server ships: (c) with its {@code ip slb dfp} stanza,
 * and (d), pass.
 */
class IosReferenceMobilityConfigTest extends CommandLineTest {
    @TempDir
    Path tmp;

    private int check(Path f) {
        return mclb("check", "-c", f.toString());
    }

    private Path copy(String resource, String text) throws Exception {
        Path f = tmp.resolve(resource);
        Files.writeString(f, text);
        return f;
    }

    private static String resource(String name) throws Exception {
        try (var in = IosReferenceMobilityConfigTest.class.getResourceAsStream("/ios-reference/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void referenceDAsnGatewayFarmPasses() throws Exception {
        Path d = copy("d.cfg", resource("d-asn-gateway-farm.cfg"));
        assertThat(check(d)).as("stderr: %s", stderr()).isZero();
        assertThat(stdout()).isEqualTo(d + ": OK (1 server farm(s), 1 virtual server(s))\n");
    }

    @Test
    void referenceCHomeAgentDirectorPassesWithItsDfpStanza() throws Exception {
        Path c = copy("c.cfg", resource("c-home-agent-director.cfg"));
        assertThat(check(c)).as("stderr: %s", stderr()).isZero();
        assertThat(stdout()).isEqualTo(c + ": OK (1 server farm(s), 1 virtual server(s))\n");
        assertThat(stderr()).as("no warning either").isEmpty();
    }

    /** Reference (a), the GGSN farm with DFP (issue 11), kept here beside (c) so every section 5 check runs alike. */
    @Test
    void referenceAGgsnFarmWithDfpPasses() throws Exception {
        Path a = copy("a.cfg", resource("a-ggsn-farm-dfp.cfg"));
        assertThat(check(a)).as("stderr: %s", stderr()).isZero();
        assertThat(stdout()).isEqualTo(a + ": OK (1 server farm(s), 1 virtual server(s))\n");
    }
}
