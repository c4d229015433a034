package io.mclb.probe;

import io.mclb.config.ConfigError;
import io.mclb.config.ConfigException;
import io.mclb.config.ConfigParser;
import io.mclb.config.ConfigWriter;
import io.mclb.config.MclbConfig;
import io.mclb.config.ProbeConfig;
import io.mclb.farm.TrackPort;
import io.mclb.route.Advertise;
import io.mclb.route.AdvertiseSyntax;
import io.mclb.route.RouteTable;
import io.mclb.service.Modules;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The health layer's lines as an operator writes them: every built-in probe type with its IOS
 * sub-lines parsed once into records, timing defaults where IOS gives none, secrets stored as
 * type 7, bring-up, track-port and advertise; and every bad value answered as
 * {@code file:line: what is wrong}, naming the value and what is allowed.
 */
class HealthLinesSyntaxTest {
    private static final Path BASE = Path.of("/tmp");

    private static final String FARM = """
            ip slb serverfarm F
             probe P
             real 10.0.0.1 2123
              inservice
             real 10.0.0.1 3386
              inservice
            ip slb vserver V
             virtual 10.9.9.9 udp 2123
             serverfarm F
             inservice
            """;

    private static MclbConfig parse(String text) throws ConfigException {
        return ConfigParser.parse("t.cfg", text, BASE, Modules.of().grammar());
    }

    private static List<String> errors(String text) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> parse(text));
        assertThat(e).as("expected errors for:%n%s", text).isNotNull();
        return e.errors().stream().map(ConfigError::toString).toList();
    }

    private static ProbeConfig probe(String stanza) throws ConfigException {
        return parse(FARM + stanza).probes().get("P");
    }

    @Test
    void everyTypeIsBuiltInWithTheDefaultTiming() throws Exception {
        for (String type : List.of("ping", "tcp", "http", "custom udp\n request data 0 01", "dns\n lookup a.test")) {
            ProbeConfig p = probe("ip slb probe P " + type + "\n");
            assertThat(p.intervalSeconds()).isEqualTo(10);
            assertThat(p.faildetect()).isEqualTo(3);
            assertThat(p.timeoutSeconds()).isEqualTo(5);
        }
        assertThat(probe("ip slb probe P tcp\n interval 2\n timeout 9\n").timeoutSeconds())
                .as("timeout at most the interval").isEqualTo(2);
    }

    @Test
    void probeSubLinesBecomeRecords() throws Exception {
        TcpProbe.Settings tcp = probe("ip slb probe P tcp\n port 8080\n address 10.1.1.1 routed\n")
                .settings(TcpProbe.Settings.class);
        assertThat(tcp.port()).isEqualTo(8080);
        assertThat(tcp.address()).isEqualTo(InetAddress.getByName("10.1.1.1"));
        assertThat(tcp.fullHandshake()).as("half-open unless told").isFalse();
        assertThat(probe("ip slb probe P tcp\n handshake full\n").settings(TcpProbe.Settings.class).fullHandshake())
                .isTrue();
        assertThat(probe("ip slb probe P tcp\n handshake half-open\n").settings(TcpProbe.Settings.class)
                .fullHandshake()).isFalse();

        HttpProbe.Settings http = probe("""
                ip slb probe P http
                 request method head url /health
                 expect status 401 regex "Auth(entication)? required"
                 credentials ops s3cret
                 header X-Probe mclb 1
                 port 8080
                """).settings(HttpProbe.Settings.class);
        assertThat(http.method()).isEqualTo("HEAD");
        assertThat(http.url()).isEqualTo("/health");
        assertThat(http.status()).isEqualTo(401);
        assertThat(http.regex()).isEqualTo("Auth(entication)? required");
        assertThat(http.user()).isEqualTo("ops");
        assertThat(http.password()).isEqualTo("s3cret");
        assertThat(http.headers()).containsExactly(List.of("X-Probe", "mclb 1"));
        assertThat(http.toString()).doesNotContain("s3cret");

        CustomUdpProbe.Settings udp = probe("""
                ip slb probe P custom udp
                 request data 0 05 04 00 77
                 request data 6 ff
                 response 2 data 4 0a0b
                 response 1 data 0 01
                """).settings(CustomUdpProbe.Settings.class);
        assertThat(HexFormat.of().formatHex(udp.request())).isEqualTo("05040077" + "0000" + "ff");
        assertThat(udp.clauses()).extracting(CustomUdpProbe.Clause::number).containsExactly(1, 2);

        DnsProbe.Settings dns = probe("ip slb probe P dns\n lookup probe.test\n lookup 192.0.2.7\n lookup 192.0.2.8\n")
                .settings(DnsProbe.Settings.class);
        assertThat(dns.name()).isEqualTo("probe.test");
        assertThat(dns.expected()).extracting(InetAddress::getHostAddress).containsExactly("192.0.2.7", "192.0.2.8");
        assertThat(probe("ip slb probe P dns\n lookup a.test 2001:db8::7\n").settings(DnsProbe.Settings.class).ipv6())
                .isTrue();
    }

    @Test
    void credentialsAreWrittenBackAsType7AndReadAgain() throws Exception {
        MclbConfig c = parse(FARM + "ip slb probe P http\n credentials ops s3cret\n");
        String written = ConfigWriter.write(c);
        assertThat(written).contains("credentials ops 7 ").doesNotContain("s3cret");
        assertThat(parse(written).probes().get("P").settings(HttpProbe.Settings.class).password()).isEqualTo("s3cret");
    }

    @Test
    void badProbeValuesNameTheValueAndWhatIsAllowed() {
        assertThat(errors(FARM + "ip slb probe P tcp\n port 70000\n"))
                .containsExactly("t.cfg:12: probe P port 70000: out of range, allowed 1..65535");
        assertThat(errors(FARM + "ip slb probe P tcp\n handshake syn\n"))
                .containsExactly("t.cfg:12: probe P handshake syn: unknown, allowed full, half-open");
        assertThat(errors(FARM + "ip slb probe P tcp\n handshake\n"))
                .containsExactly("t.cfg:12: probe P handshake: missing full or half-open");
        assertThat(errors(FARM + "ip slb probe P tcp\n handshake full now\n"))
                .containsExactly("t.cfg:12: probe P handshake full: unexpected 'now'");
        assertThat(errors(FARM + "ip slb probe P ping\n lookup x\n")).singleElement().asString()
                .startsWith("t.cfg:12: probe P ping: unknown line 'lookup x', allowed address IP [routed]");
        assertThat(errors(FARM + "ip slb probe P http\n request method put\n")).containsExactly(
                "t.cfg:12: probe P request method put: unknown method, allowed get, head, post, name M");
        assertThat(errors(FARM + "ip slb probe P http\n expect status 200 regex (\n")).singleElement().asString()
                .startsWith("t.cfg:12: probe P expect regex (: not a regular expression");
        assertThat(errors(FARM + "ip slb probe P http\n expect status 99\n"))
                .containsExactly("t.cfg:12: probe P expect status 99: out of range, allowed 100..599");
        assertThat(errors(FARM + "ip slb probe P custom tcp\n")).containsExactly(
                "t.cfg:11: ip slb probe P custom tcp: allowed 'custom udp'");
        assertThat(errors(FARM + "ip slb probe P custom udp\n request data 0 0g\n")).containsExactly(
                "t.cfg:12: probe P request data 0: '0g' is not hexadecimal bytes, allowed pairs of 0-9 A-F, e.g. 05 04 00 77");
        assertThat(errors(FARM + "ip slb probe P custom udp\n request data 0 01\n response 1 data 0 01\n"
                + " response 1 data 2 02\n")).containsExactly("t.cfg:14: probe P response 1: clause 1 given twice");
        assertThat(errors(FARM + "ip slb probe P custom udp\n port 9\n")).containsExactly(
                "t.cfg:11: probe P custom udp: no request, add 'request data START HEX'");
        assertThat(errors(FARM + "ip slb probe P dns\n lookup 192.0.2.7\n")).containsExactly(
                "t.cfg:11: probe P dns: no name to look up, add 'lookup NAME' (e.g. lookup probe.example.net)");
        assertThat(errors(FARM + "ip slb probe P dns\n lookup bad..name\n")).singleElement().asString()
                .startsWith("t.cfg:12: probe P lookup bad..name: not a host name");
        assertThat(errors(FARM + "ip slb probe P dns\n lookup a.test\n lookup 192.0.2.7\n lookup 2001:db8::1\n"))
                .containsExactly("t.cfg:11: probe P dns: expected addresses mix IPv4 and IPv6; one probe asks for A or AAAA");
        assertThat(errors(FARM + "ip slb probe P icmp\n")).singleElement().asString()
                .startsWith("t.cfg:11: ip slb probe P icmp: unknown probe type, allowed ping, tcp, custom, http, dns");
    }

    @Test
    void bringUpTrackPortAndAdvertiseAreRecords() throws Exception {
        MclbConfig c = parse("mclb probe bring-up max-checks 20 cycle-ms 250\nmclb advertise table 100 protocol 99\n"
                + FARM.replace("  inservice\n real 10.0.0.1 3386", "  track-port 2123 3386\n  inservice\n real 10.0.0.1 3386")
                .replace(" serverfarm F\n inservice", " serverfarm F\n advertise active\n inservice")
                + "ip slb probe P tcp\n");
        assertThat(BringUpSyntax.of(c)).isEqualTo(new BringUpSettings(20, 250));
        assertThat(AdvertiseSyntax.table(c)).isEqualTo(new RouteTable(100, 99));
        assertThat(AdvertiseSyntax.of(c.vservers().get("V"))).isEqualTo(new Advertise(true, true));
        assertThat(c.farms().get("F").reals().get(0).records(TrackPort.class).get(0).ports()).containsExactly(2123, 3386);
        assertThat(c.warnings()).isEmpty();
        assertThat(AdvertiseSyntax.of(parse(FARM + "ip slb probe P tcp\n").vservers().get("V")))
                .as("IOS default: advertised").isEqualTo(Advertise.DEFAULT);
    }

    @Test
    void badHealthLinesNameTheValueAndWhatIsAllowed() {
        String probe = "ip slb probe P tcp\n";
        assertThat(errors("mclb probe bring-up max-checks 0\n" + FARM + probe)).containsExactly(
                "t.cfg:1: mclb probe bring-up max-checks 0: out of range, allowed 1..10000");
        assertThat(errors("mclb probe bring-up speed 9\n" + FARM + probe)).containsExactly(
                "t.cfg:1: mclb probe bring-up speed: unknown setting, allowed 'mclb probe bring-up [max-checks N] [cycle-ms MS]'");
        assertThat(errors("mclb advertise table 254\n" + FARM + probe)).containsExactly(
                "t.cfg:1: mclb advertise table 254: the kernel's main table, allowed a table of its own, 1..252 or 256..4294967295");
        assertThat(errors("mclb advertise table 100 protocol 12\n" + FARM + probe)).containsExactly(
                "t.cfg:1: mclb advertise table 100 protocol 12: BIRD's own routes, allowed 4..255 but 12");
        assertThat(errors(FARM.replace(" serverfarm F\n inservice", " serverfarm F\n advertise passive\n inservice") + probe))
                .containsExactly("t.cfg:10: advertise passive: unexpected, allowed 'advertise [active]'");
        assertThat(errors(FARM.replace("  inservice\n real 10.0.0.1 3386", "  track-port 2123\n  inservice\n real 10.0.0.1 3386")
                + probe)).singleElement().asString().startsWith("t.cfg:4: track-port 2123: give the master port and at least one");
        assertThat(errors(FARM.replace("  inservice\n real 10.0.0.1 3386", "  track-port 2123 1812\n  inservice\n real 10.0.0.1 3386")
                + probe)).containsExactly("t.cfg:4: track-port 2123 1812: no real 10.0.0.1 1812 in any serverfarm");
    }
}
