package io.mclb.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code mclb admin token|tls|max-connections|timeout}: read once, refused at load with file:line when wrong. */
class AdminLineParserTest {
    @TempDir
    Path dir;

    private MclbConfig parse(String text) throws ConfigException {
        return ConfigParser.parse("a.cfg", text, dir, List.of());
    }

    private Path file(String name, String content, String mode) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, content, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
        return f;
    }

    private List<String> errors(String text) {
        try {
            parse(text);
        } catch (ConfigException e) {
            return e.errors().stream().map(ConfigError::toString).toList();
        }
        throw new AssertionError("accepted: " + text);
    }

    @Test
    void theTokenIsReadFromAnOwnerOnlyFileRelativeToTheConfiguration() throws Exception {
        file("admin.token", "  s3cret\n", "rw-------");
        MclbConfig c = parse("mclb admin 127.0.0.1 8080\nmclb admin token admin.token\nmclb admin timeout 5\n"
                + "mclb admin max-connections 100\n");
        AdminLine.Token t = c.records(AdminLine.Token.class).get(0);
        assertThat(t.file()).isEqualTo(dir.resolve("admin.token"));
        assertThat(new String(t.secret(), StandardCharsets.UTF_8)).isEqualTo("s3cret");
        assertThat(t.toString()).doesNotContain("s3cret");
        assertThat(c.records(AdminLine.Timeout.class)).containsExactly(new AdminLine.Timeout(5));
        assertThat(c.records(AdminLine.MaxConnections.class)).containsExactly(new AdminLine.MaxConnections(100));
        assertThat(c.global().admin().getPort()).isEqualTo(8080);
        assertThat(ConfigWriter.write(c)).contains("mclb admin token admin.token\n").doesNotContain("s3cret");
    }

    @Test
    void aTokenFileOthersCanReadThatIsMissingOrEmptyIsRefusedAtItsLine() throws Exception {
        file("open.token", "s3cret\n", "rw-r-----");
        file("empty.token", " \n", "rw-------");
        assertThat(errors("mclb admin token open.token\n")).containsExactly("a.cfg:1: mclb admin token open.token:"
                + " readable by group or others (mode rw-r-----); allowed only its owner: chmod 600 "
                + dir.resolve("open.token"));
        assertThat(errors("\nmclb admin token nope.token\n")).singleElement().asString()
                .startsWith("a.cfg:2: mclb admin token nope.token: no such file");
        assertThat(errors("mclb admin token empty.token\n")).containsExactly(
                "a.cfg:1: mclb admin token empty.token: the file is empty; allowed a file holding the token");
        assertThat(errors("mclb admin token\n")).containsExactly("a.cfg:1: mclb admin token: missing FILE");
    }

    @Test
    void limitsTlsAndDuplicatesSayWhatIsAllowed() throws Exception {
        file("a.token", "x\n", "rw-------");
        file("cert.pem", "not a certificate\n", "rw-------");
        assertThat(errors("mclb admin timeout 0\n")).containsExactly(
                "a.cfg:1: mclb admin timeout 0: out of range, allowed 1..300");
        assertThat(errors("mclb admin max-connections 2\n")).containsExactly(
                "a.cfg:1: mclb admin max-connections 2: out of range, allowed 16..1000000");
        assertThat(errors("mclb admin token a.token\nmclb admin token a.token\n")).containsExactly(
                "a.cfg:2: mclb admin token: duplicate line, first at line 1; allowed once");
        assertThat(errors("mclb admin tls cert.pem key.pem\n")).singleElement().asString()
                .startsWith("a.cfg:1: mclb admin tls cert.pem key.pem: ")
                .endsWith("allowed a PEM certificate (chain) and its unencrypted PEM private key (EC, RSA or PKCS#8)");
        assertThatThrownBy(() -> parse("mclb admin tls cert.pem\n")).isInstanceOf(ConfigException.class);
    }

    @Test
    void anAddressWrittenWithItsPortSaysHowToWriteIt() {
        assertThat(errors("mclb admin 127.0.0.1:18555\n")).containsExactly("a.cfg:1: mclb admin 127.0.0.1:18555: not an"
                + " IP address (IPv4 or IPv6); the port is a word of its own: '127.0.0.1 18555'");
        assertThat(errors("mclb admin [::1]:18555\n")).containsExactly("a.cfg:1: mclb admin [::1]:18555: not an"
                + " IP address (IPv4 or IPv6); the port is a word of its own: '::1 18555'");
        assertThat(errors("mclb admin localhost:18555\n")).containsExactly("a.cfg:1: mclb admin localhost:18555: not an"
                + " IP address (IPv4 or IPv6)");
    }
}
