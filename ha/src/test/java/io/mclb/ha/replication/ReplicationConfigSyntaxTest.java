package io.mclb.ha.replication;

import io.mclb.config.ConfigException;
import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplicationConfigSyntaxTest {
    @TempDir
    Path dir;

    private static final String FARM = """
            ip slb serverfarm F
             real 10.0.0.1
              inservice
            """;

    private static String vserver(String name, int port, String replicate) {
        return "ip slb vserver " + name + "\n virtual 10.99.0.100 udp " + port + "\n serverfarm F\n " + replicate
                + "\n inservice\n";
    }

    private static MclbConfig parse(String text) throws ConfigException {
        return ConfigParser.parse("t.cfg", text, null, List.of(new ReplicationConfigSyntax()));
    }

    @Test
    void issueLineIsAcceptedWithDefaults() throws Exception {
        MclbConfig c = parse(FARM + vserver("V", 2123, "replicate casa 10.99.0.2 10.99.0.3 4231 password 0 casa-secret"));
        ReplicationConfig r = ReplicationConfig.from(c).orElseThrow();
        assertThat(r.listenAddress()).isEqualTo(InetAddress.getByName("10.99.0.2"));
        assertThat(r.remoteAddress()).isEqualTo(InetAddress.getByName("10.99.0.3"));
        assertThat(r.port()).isEqualTo(4231);
        assertThat(r.interval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(r.password()).isEqualTo("casa-secret");
        assertThat(r.passwordTimeout()).isEqualTo(Duration.ofSeconds(180));
        assertThat(r.tls()).isNull();
        assertThat(r.toString()).doesNotContain("casa-secret");
    }

    @Test
    void intervalType7PasswordAndTimeout() {
        ReplicationConfig r = ReplicationConfig.parseReplicate(
                List.of("replicate", "casa", "10.0.200.2", "10.0.200.3", "4231", "20", "password", "7", "0822455D0A16", "60"));
        assertThat(r.interval()).isEqualTo(Duration.ofSeconds(20));
        assertThat(r.password()).isEqualTo("cisco");
        assertThat(r.passwordTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(ReplicationConfig.parseReplicate(List.of("replicate", "casa", "::1", "::2", "1")).password()).isNull();
    }

    @Test
    void errorsNameFileLineValueAndWhatIsAllowed() {
        assertThatThrownBy(() -> parse(FARM + vserver("V", 2123, "replicate casa 10.99.0.2 10.99.0.3 70000")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("t.cfg:7: replicate casa port 70000: out of range, allowed 1..65535");
        assertThatThrownBy(() -> parse(FARM + vserver("V", 2123, "replicate casa 10.99.0.2 host-b 4231")))
                .hasMessageContaining("t.cfg:7: replicate casa REMOTE-IP host-b: not an IP address");
        assertThatThrownBy(() -> parse(FARM + vserver("V", 2123, "replicate casa 10.99.0.2 10.99.0.3 4231 301")))
                .hasMessageContaining("replicate casa interval 301: out of range, allowed 1..300");
        assertThatThrownBy(() -> parse(FARM + vserver("V", 2123, "replicate casa 10.99.0.2 10.99.0.3 4231 password 7 ZZ")))
                .hasMessageContaining("not a type 7 string");
        assertThatThrownBy(() -> parse(FARM + vserver("V", 2123, "replicate casa 10.99.0.2 ::3 4231")))
                .hasMessageContaining("both be IPv4 or both IPv6");
    }

    @Test
    void everyVserverMustCarryTheSameLine() {
        String text = FARM + vserver("A", 2123, "replicate casa 10.99.0.2 10.99.0.3 4231 password 0 s")
                + vserver("B", 1812, "replicate casa 10.99.0.2 10.99.0.3 4232 password 0 s");
        assertThatThrownBy(() -> parse(text)).hasMessageContaining("t.cfg:12: vserver B: replicate casa differs from line 7");
    }

    @Test
    void tlsLineResolvesRelativeToTheFileAndChecksTheFiles() throws Exception {
        Path cfg = dir.resolve("mclb.cfg");
        Files.writeString(cfg, "mclb replicate tls cert a.pem key a.key ca ca.pem\n" + FARM
                + vserver("V", 2123, "replicate casa 10.99.0.2 10.99.0.3 4231"));
        assertThatThrownBy(() -> ConfigParser.parse(cfg, List.of(new ReplicationConfigSyntax())))
                .hasMessageContaining("mclb.cfg:1: mclb replicate tls cert " + dir.resolve("a.pem") + ": file not readable");
        for (String f : List.of("a.pem", "a.key", "ca.pem")) {
            Files.writeString(dir.resolve(f), "x");
        }
        MclbConfig c = ConfigParser.parse(cfg, List.of(new ReplicationConfigSyntax()));
        assertThat(ReplicationConfig.from(c).orElseThrow().tls())
                .isEqualTo(new ReplicationConfig.TlsFiles(dir.resolve("a.pem"), dir.resolve("a.key"), dir.resolve("ca.pem")));
        assertThatThrownBy(() -> parse("mclb replicate tls cert a key b\n"))
                .hasMessageContaining("t.cfg:1: mclb replicate tls cert a key b: allowed 'mclb replicate tls cert PEMFILE key PEMFILE ca PEMFILE'");
    }

    @Test
    void noPasswordNorTlsIsAWarning() throws Exception {
        MclbConfig c = parse(FARM + vserver("V", 2123, "replicate casa 10.99.0.2 10.99.0.3 4231"));
        assertThat(c.warnings()).anyMatch(w -> w.toString().contains("t.cfg:7: warning: replicate casa without password"));
    }

    @Test
    void moreErrorsNameTheValue() {
        assertThatThrownBy(() -> parse(FARM + vserver("V", 2123, "replicate casa 10.99.0.2 10.99.0.3 4231 password 0 s 9 x")))
                .hasMessageContaining("t.cfg:7: replicate casa: unexpected 'x'");
        assertThatThrownBy(() -> parse(FARM + vserver("V", 2123, "replicate casa 10.99.0.2 10.99.0.3 4231 password")))
                .hasMessageContaining("replicate casa password: missing value");
        assertThatThrownBy(() -> parse("mclb replicate tls cert a key b cert c\n"))
                .hasMessageContaining("t.cfg:1: mclb replicate tls: 'cert' given twice");
        assertThat(ReplicationConfig.parseReplicate(List.of("replicate", "casa", "::1", "::2", "1", "password", "7")).password())
                .isEqualTo("7");
    }
}
