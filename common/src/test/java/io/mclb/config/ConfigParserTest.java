package io.mclb.config;

import io.mclb.service.ConfigSyntax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigParserTest {

    private static final Path BASE = Path.of("/etc/mclb");
    private static final List<ConfigSyntax> FAKE = List.of(new FakeSyntax());

    private static final String ISSUE_EXAMPLE = """
            mclb admin 127.0.0.1 18080
            mclb data-dir ./data
            ip slb serverfarm ECHO
             real 127.0.0.11 9001
              weight 3
              inservice
             real 127.0.0.12 9001
              weight 1
              inservice
             real 127.0.0.13 9001
              weight 2
              inservice
            ip slb vserver ECHO-V
             virtual 127.0.0.100 udp 9000
             serverfarm ECHO
             idle 30
             inservice
            """;

    private static MclbConfig parse(String text) throws ConfigException {
        return ConfigParser.parse("t.cfg", text, BASE, FAKE);
    }

    private static List<String> errors(String text, List<ConfigSyntax> extensions) {
        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ConfigParser.parse("t.cfg", text, BASE, extensions));
        assertThat(e).as("expected a ConfigException").isNotNull();
        return e.errors().stream().map(ConfigError::toString).toList();
    }

    @Test
    void emptyConfigurationIsAWarningNamingTheFile() throws Exception {
        MclbConfig c = parse("! nothing yet\nmclb admin 127.0.0.1 18080\n");

        assertThat(c.warnings()).extracting(ConfigError::toString).containsExactly(
                "t.cfg: warning: empty configuration: no server farm, no virtual server; mclb would serve nothing");
        assertThat(parse(ISSUE_EXAMPLE).warnings()).isEmpty();
    }

    @Test
    void issueExampleParsesWithIosDefaults() throws Exception {
        MclbConfig c = parse(ISSUE_EXAMPLE);

        assertThat(c.global().admin()).isEqualTo(new InetSocketAddress("127.0.0.1", 18080));
        assertThat(c.global().dataDir()).isEqualTo(Path.of("/etc/mclb/data"));
        assertThat(c.warnings()).isEmpty();
        ServerFarmConfig echo = c.farms().get("ECHO");
        assertThat(echo.predictor()).isEqualTo(PredictorKind.ROUNDROBIN);
        assertThat(echo.reals()).extracting(RealConfig::weight).containsExactly(3, 1, 2);
        for (RealConfig r : echo.reals()) {
            assertThat(r.port()).isEqualTo(9001);
            assertThat(r.inService()).isTrue();
            assertThat(r.reassign()).isEqualTo(3);
            assertThat(r.faildetectNumconns()).isEqualTo(8);
            assertThat(r.faildetectNumclients()).isEqualTo(8);
            assertThat(r.retrySeconds()).isEqualTo(60);
            assertThat(r.maxConns()).isEqualTo(4_294_967_295L);
            assertThat(r.inbandFaildetect()).isTrue();
        }
        assertThat(echo.reals().get(1).source()).isEqualTo(new SourceRef("t.cfg", 7));
        VirtualServerConfig v = c.vservers().get("ECHO-V");
        assertThat(v.address()).isEqualTo(InetAddress.getByName("127.0.0.100"));
        assertThat(v.port()).isEqualTo(9000);
        assertThat(v.service()).isNull();
        assertThat(v.farm()).isEqualTo("ECHO");
        assertThat(v.idleSeconds()).isEqualTo(30);
        assertThat(v.inService()).isTrue();
    }

    @Test
    void defaultsApplyWhenLinesAreMissing() throws Exception {
        MclbConfig c = parse("""
                ip slb serverfarm F
                 real 10.0.0.1
                 real 10.0.0.2
                  faildetect numconns 3
                 real 10.0.0.3
                  faildetect numconns 20
                ip slb vserver V
                 virtual 10.0.0.100 udp 53
                 serverfarm F
                """);

        List<RealConfig> reals = c.farms().get("F").reals();
        assertThat(reals.get(0)).satisfies(r -> {
            assertThat(r.weight()).isEqualTo(8);
            assertThat(r.reassign()).isEqualTo(3);
            assertThat(r.retrySeconds()).isEqualTo(60);
            assertThat(r.port()).isZero();
            assertThat(r.inService()).as("no inservice line = out of service").isFalse();
        });
        assertThat(reals.get(1).faildetectNumclients()).as("numclients defaults to min(numconns, 8)").isEqualTo(3);
        assertThat(reals.get(2).faildetectNumclients()).isEqualTo(8);
        assertThat(c.global()).isEqualTo(new GlobalConfig(GlobalConfig.DEFAULT_ADMIN, Path.of("/etc/mclb/data"),
                ForwardingMode.PROXY, GlobalConfig.DEFAULT_STICKY_ENTRIES, 0));
        assertThat(c.vservers().get("V").inService()).isFalse();
    }

    @Test
    void readsFileAndResolvesDataDirAgainstItsDirectory(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("mclb.cfg");
        Files.writeString(file, ISSUE_EXAMPLE);

        MclbConfig c = ConfigParser.parse(file, List.of());

        assertThat(c.global().dataDir()).isEqualTo(dir.toAbsolutePath().resolve("data"));
        assertThat(c.sourceFile()).isEqualTo(file);

        Files.writeString(file, "mclb event-loops 99\n");
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigParser.parse(file, List.of()));
        assertThat(e.errors()).extracting(ConfigError::toString)
                .containsExactly(file + ":1: mclb event-loops 99: out of range, allowed 0..64");
    }

    @Test
    void ipv6VirtualServerAndRealsAreAccepted() throws Exception {
        MclbConfig c = parse("""
                ip slb serverfarm F
                 real 2001:db8::1 9001
                  inservice
                ip slb vserver V
                 virtual 2001:db8::100 udp 9000
                 serverfarm F
                 sticky 60
                 inservice
                """);

        assertThat(c.farms().get("F").reals().get(0).address()).isEqualTo(InetAddress.getByName("2001:db8::1"));
        VirtualServerConfig v = c.vservers().get("V");
        assertThat(v.address()).isEqualTo(InetAddress.getByName("2001:db8::100"));
        assertThat(v.sticky()).isEqualTo(new StickyConfig(60, 0, 128));
        assertThat(ConfigWriter.write(c)).contains(" virtual 2001:db8::100 udp 9000\n", " real 2001:db8::1 9001\n");
    }

    @Test
    void deliberatelyIgnoredIosLinesAreWarningsNamingTheLine() throws Exception {
        MclbConfig c = parse("""
                ip slb entries conn 10000
                ip slb serverfarm F
                 probe PING
                 real 10.0.0.1
                ip slb vserver V
                 virtual 10.0.0.100 udp 53
                 serverfarm F
                 replicate casa 10.0.0.1 10.0.0.2 4231 password 0 s3cret
                """);

        assertThat(c.warnings()).extracting(ConfigError::toString).containsExactly(
                "t.cfg:1: warning: ignored 'ip slb entries conn 10000': not used by mclb"
                        + " (mclb sizes its tables itself: 'mclb sticky entries' for the sticky table)",
                "t.cfg:3: warning: ignored 'probe PING': not used by mclb (no 'ip slb probe PING TYPE' in this file"
                        + " defines it: the farm's reals are not probed)",
                "t.cfg:8: warning: ignored 'replicate casa 10.0.0.1 10.0.0.2 4231 password 0 ***': not used by mclb"
                        + " (stateful backup: the HA module takes 'replicate casa' lines, and it is not loaded here)");
        assertThat(ConfigWriter.write(c)).doesNotContain("probe", "replicate", "entries", "s3cret");
    }

    @Test
    void maxconnsStickyOverrideIsAcceptedWithAWarningBecauseTheModelHasNoPlaceForIt() throws Exception {
        MclbConfig c = parse("ip slb serverfarm F\n real 10.0.0.1\n  maxconns 100 sticky-override\n");

        assertThat(c.farms().get("F").reals().get(0).maxConns()).isEqualTo(100);
        assertThat(c.warnings()).extracting(ConfigError::toString).containsExactly(
                "t.cfg:3: warning: ignored 'sticky-override': mclb applies maxconns to sticky clients too");
    }

    @Test
    void anExtensionClaimTakesPrecedenceOverTheIgnoreList() throws Exception {
        ConfigSyntax timers = new ConfigSyntax() {
            @Override
            public String owner() {
                return "gtp";
            }

            @Override
            public Claim claimLine(ConfigBlock block, ConfigLine line) {
                return line.size() > 2 && line.get(2).equals("timers") ? Claim.of(line) : Claim.notMine();
            }
        };
        MclbConfig c = ConfigParser.parse("t.cfg", "ip slb timers gtp gsn 600\n", BASE, List.of(timers));

        assertThat(c.warnings()).isEmpty();
        assertThat(c.globalExtensions("gtp")).extracting(ExtensionLine::text).containsExactly("ip slb timers gtp gsn 600");
        assertThat(ConfigWriter.write(c)).contains("ip slb timers gtp gsn 600\n!\n");
    }

    @Test
    void extensionLinesAreKeptWrittenBackInPlaceAndRoundTrip() throws Exception {
        String text = """
                route-map CSG-PATH permit 10
                 match ip address 110
                 set ip next-hop 10.60.1.1
                ip slb serverfarm F
                 failaction fake purge
                 real 10.0.0.1
                  inservice
                ip slb vserver GN
                 virtual 10.0.0.100 udp 2123 service fake-svc
                 serverfarm F
                 sticky fake key
                 inservice
                """;
        MclbConfig c = parse(text);

        ExtensionLine map = c.globalExtensions("fake").get(0);
        assertThat(map.tokens()).containsExactly("route-map", "CSG-PATH", "permit", "10");
        assertThat(map.children()).containsExactly(List.of("match", "ip", "address", "110"),
                List.of("set", "ip", "next-hop", "10.60.1.1"));
        assertThat(map.source()).isEqualTo(new SourceRef("t.cfg", 1));
        assertThat(c.farms().get("F").extensions()).extracting(ExtensionLine::text).containsExactly("failaction fake purge");
        VirtualServerConfig gn = c.vservers().get("GN");
        assertThat(gn.service()).isEqualTo("fake-svc");
        assertThat(gn.extensions()).singleElement().satisfies(x -> {
            assertThat(x.owner()).isEqualTo("fake");
            assertThat(x.text()).isEqualTo("sticky fake key");
            assertThat(x.source().line()).isEqualTo(11);
        });

        String written = ConfigWriter.write(c);
        assertThat(written).contains("""
                route-map CSG-PATH permit 10
                 match ip address 110
                 set ip next-hop 10.60.1.1
                !
                ip slb serverfarm F
                 failaction fake purge
                 real 10.0.0.1
                """);
        assertThat(written).contains("""
                ip slb vserver GN
                 virtual 10.0.0.100 udp 2123 service fake-svc
                 serverfarm F
                 sticky fake key
                 inservice
                !
                """);
        ConfigAssert.assertSameSettings(parse(written), c);
    }

    @Test
    void allErrorsAreReportedAtOnceInLineOrder() {
        List<String> errors = errors("""
                ip slb vserver V
                 virtual 10.0.0.100 udp 53
                 serverfarm NOPE
                ip slb serverfarm F
                 real 10.0.0.1 53
                  weight 70000
                  reassign 9
                """, FAKE);

        assertThat(errors).containsExactly(
                "t.cfg:3: serverfarm NOPE: no such server farm (defined: F)",
                "t.cfg:6: weight 70000: out of range, allowed 0..65535",
                "t.cfg:7: reassign 9: out of range, allowed 1..4");
    }

    @Test
    void transparentForwardingIsRefusedWithWhatIsAllowed() {
        assertThat(errors("mclb forwarding transparent\n", List.of()))
                .containsExactly("t.cfg:1: mclb forwarding transparent: not available in this build, allowed proxy");
    }

    @Test
    void unknownServiceListsTheServicesExtensionsDeclare() {
        String text = """
                ip slb serverfarm F
                 real 10.0.0.1
                ip slb vserver V
                 virtual 10.0.0.100 udp 53 service radius
                 serverfarm F
                """;
        assertThat(errors(text, FAKE)).containsExactly(
                "t.cfg:4: service radius: unknown service, allowed fake-svc (no service keyword means plain UDP)");
        assertThat(errors(text, List.of())).containsExactly(
                "t.cfg:4: service radius: unknown service, no services in this build (no service keyword means plain UDP)");
    }

    @Test
    void unclaimedStanzaWithoutExtensionsIsOneError() {
        assertThat(errors("route-map CSG permit 10\n match ip address 110\n", List.of()))
                .containsExactly("t.cfg:1: unknown command 'route-map CSG permit 10'");
    }

    @Test
    void extensionRulesReportEveryErrorInOnePassButNoneThatFollowsFromARefusedLine() {
        String vserver = """
                ip slb serverfarm F
                 real 10.0.0.1
                ip slb vserver V
                 virtual 10.0.0.100 udp 53
                 serverfarm F
                 sticky fake key
                """;
        assertThat(errors(vserver, FAKE)).containsExactly("t.cfg:3: vserver V: 'sticky fake key' needs service fake-svc");
        // an engine error elsewhere no longer hides the module's (the operator fixes both at once)
        assertThat(errors(vserver + "ip slb vserver W\n", FAKE))
                .containsExactly("t.cfg:3: vserver V: 'sticky fake key' needs service fake-svc",
                        "t.cfg:7: vserver W: no virtual line, add 'virtual IP udp PORT'",
                        "t.cfg:7: vserver W: no serverfarm line, add 'serverfarm NAME'");
        // a refused virtual line: its vserver's service is unknown, so the module's rule would only repeat it
        assertThat(errors(vserver.replace("udp 53", "udp 99999"), FAKE))
                .containsExactly("t.cfg:4: virtual 10.0.0.100 port 99999: out of range, allowed 1..65535");
    }

    @Test
    void validatorChecksAConfigurationBuiltInCode() throws Exception {
        SourceRef at = new SourceRef("built", 1);
        RealConfig real = RealConfig.defaults(InetAddress.getByName("10.0.0.1"), 0, at);
        ServerFarmConfig farm = new ServerFarmConfig("F", PredictorKind.ROUNDROBIN, null, false, List.of(real, real),
                List.of(), at);
        VirtualServerConfig v = new VirtualServerConfig("V", InetAddress.getByName("10.0.0.100"), 53, List.of(), null, "G",
                null, false, 30, null, List.of(), true, null, List.of(), new SourceRef("built", 9));
        MclbConfig c = new MclbConfig(GlobalConfig.defaults(), java.util.Map.of("F", farm), java.util.Map.of("V", v),
                List.of(), List.of(), null);
        List<String> found = new ArrayList<>();
        ConfigValidator.validate(c, List.of(), new ConfigSyntax.ErrorSink() {
            @Override
            public void error(SourceRef where, String message) {
                found.add(where + ": " + message);
            }

            @Override
            public void warning(SourceRef where, String message) {
                found.add(where + ": warning: " + message);
            }
        });

        assertThat(found).containsExactly(
                "built:1: real 10.0.0.1: duplicate real in serverfarm F, first defined at line 1",
                "built:9: serverfarm G: no such server farm (defined: F)");
    }

    @Test
    void quotedTokensSurviveAndAreQuotedWhenWritten() {
        List<String> t = Tokenizer.tokens("mclb data-dir \"/var/lib/my mclb\"  x");
        assertThat(t).containsExactly("mclb", "data-dir", "/var/lib/my mclb", "x");
        assertThat(Tokenizer.join(t)).isEqualTo("mclb data-dir \"/var/lib/my mclb\" x");
    }

    @Test
    void keywordsAreCaseInsensitiveButNamesAreNot() throws Exception {
        MclbConfig c = parse("""
                IP SLB SERVERFARM Echo
                 REAL 10.0.0.1
                  WEIGHT 2
                ip slb vserver V
                 VIRTUAL 10.0.0.100 UDP 53
                 SERVERFARM Echo
                """);
        assertThat(c.farms()).containsKey("Echo");
        assertThat(c.farms().get("Echo").reals().get(0).weight()).isEqualTo(2);
        assertThat(errors("ip slb serverfarm Echo\n real 10.0.0.1\nip slb vserver V\n virtual 10.0.0.1 53\n"
                + " serverfarm ECHO\n", FAKE))
                .containsExactly("t.cfg:5: serverfarm ECHO: no such server farm (defined: Echo)");
    }
}
