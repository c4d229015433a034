package io.mclb.radius.lb;

import io.mclb.config.ConfigError;
import io.mclb.config.ConfigException;
import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.service.Modules;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which radius virtual servers are pass-through ({@link PassThroughRule}), and the rules of each mode. */
class RadiusPassThroughConfigTest {
    @TempDir
    Path dir;

    /** Reference configuration (b) of ios-slb-config.md section 5, on loopback addresses, as pasted from IOS. */
    static final String IOS_B = String.join("\n",
            "access-list 110 permit ip 127.64.0.0 0.0.255.255 any",
            "route-map CSG-PATH permit 10",
            " match ip address 110",
            " set ip next-hop 127.60.1.1",
            "!",
            "ip slb serverfarm AAA-FARM",
            " real 127.50.1.1",
            "  no faildetect inband",
            "  inservice",
            " real 127.50.1.2",
            "  no faildetect inband",
            "  inservice",
            " probe AAA-UDP",
            "!",
            "ip slb serverfarm CSG-FARM",
            " predictor route-map CSG-PATH",
            "!",
            "ip slb vserver RADIUS-AUTH",
            " virtual 127.0.113.20 udp 1812 service radius",
            " serverfarm AAA-FARM",
            " sticky radius calling-station-id",
            " sticky radius framed-ip group 2",
            " idle radius request 30",
            " inservice",
            "!",
            "ip slb vserver RADIUS-ACCT",
            " virtual 127.0.113.20 udp 1813 service radius",
            " serverfarm AAA-FARM",
            " sticky radius framed-ip group 2",
            " idle radius framed-ip 7200",
            " purge radius framed-ip acct on-off",
            " radius acct local-ack key 7 0822455D0A16",
            " inservice",
            "!",
            "ip slb route framed-ip deny",
            "");

    private MclbConfig parse(String text) throws Exception {
        return ConfigParser.parse("t.cfg", text, dir, Modules.of(new RadiusServiceModule()).grammar());
    }

    private void refused(String text, String... fragments) {
        assertThatThrownBy(() -> parse(text)).isInstanceOf(ConfigException.class).hasMessageContainingAll(fragments);
    }

    private static List<String> radiusWarnings(MclbConfig c) {
        return c.warnings().stream().filter(w -> w.message().contains("RADIUS"))
                .map(w -> w.line() + ": " + w.message()).toList();
    }

    @Test
    void iosConfigurationBIsPassThroughWithOneWarningPerVirtualServer() throws Exception {
        MclbConfig c = parse(IOS_B);
        RadiusSettings s = RadiusSettings.from(c);
        assertThat(s.vservers.get("RADIUS-AUTH").passThrough()).isTrue();
        assertThat(s.vservers.get("RADIUS-ACCT").passThrough()).isTrue();
        assertThat(s.vservers.get("RADIUS-ACCT").localAck()).as("local-ack keeps its own key").isNotNull();
        List<ConfigError> passThrough = c.warnings().stream().filter(w -> w.message().contains("pass-through")).toList();
        assertThat(passThrough).extracting(ConfigError::line).as("at each vserver").containsExactly(18, 26);
        assertThat(passThrough.get(0).message()).contains("vserver RADIUS-AUTH", "unchanged",
                "every AAA server must list that address as a client with the NASes' shared secret",
                "'mclb radius client IP MASK key ...'").doesNotContain("local-ack");
        assertThat(passThrough.get(1).message()).contains("vserver RADIUS-ACCT", "local-ack key");
        assertThat(c.warnings()).as("the rest are the ignored IOS lines").hasSize(4)
                .noneMatch(w -> w.message().contains("will be dropped"));
    }

    @Test
    void theReSigningProxyIsUnchanged() throws Exception {
        MclbConfig c = parse(RadiusConfigTest.ISSUE_CONFIG);
        assertThat(RadiusSettings.from(c).vservers.values()).noneMatch(VserverRadius::passThrough);
        assertThat(c.warnings()).isEmpty();
    }

    @Test
    void aFarmHalfKeyedIsAnErrorNamingTheRealWithoutAKey() {
        String mixed = IOS_B.replace(" real 127.50.1.2\n", " real 127.50.1.2\n  mclb radius key 0 aaa-secret\n");
        refused(mixed, "t.cfg:7: real 127.50.1.1 serves RADIUS for vserver RADIUS-AUTH and needs its shared secret",
                "real 127.50.1.2 of vserver RADIUS-AUTH's farms has one", "pass-through");
        assertThatThrownBy(() -> parse(mixed)).satisfies(e -> assertThat(e.getMessage()).doesNotContain("aaa-secret")
                .containsOnlyOnce("real 127.50.1.1 serves RADIUS"));
    }

    @Test
    void clientLinesWithUnkeyedRealsAreAnErrorAtEachReal() {
        String text = "mclb radius client 127.0.0.0 8 key 0 nas-secret\n" + IOS_B;
        refused(text, "t.cfg:8: real 127.50.1.1 serves RADIUS", "t.cfg:11: real 127.50.1.2 serves RADIUS",
                "'mclb radius client' lines make mclb a re-signing proxy");
    }

    @Test
    void featuresThatNeedASecretAreErrorsWithPassThrough() {
        refused(IOS_B.replace(" idle radius request 30\n", " idle radius request 30\n radius inject auth vsa cisco\n"),
                "t.cfg:24: 'radius inject auth vsa cisco' needs the secrets", "vserver RADIUS-AUTH is pass-through");
        String probed = IOS_B.replace(" probe AAA-UDP\n", " probe AAA-SS\n")
                + "ip slb probe AAA-SS radius\n status-server\n";
        refused(probed, "t.cfg:13: probe AAA-SS (radius) signs its requests with each real's 'mclb radius key'",
                "serverfarm AAA-FARM have none");
    }

    @Test
    void keyedRealsWithoutClientLinesStillWarnThatRequestsAreDropped() throws Exception {
        String keyed = IOS_B.replace("  no faildetect inband\n", "  no faildetect inband\n  mclb radius key 0 k\n");
        MclbConfig c = parse(keyed);
        assertThat(RadiusSettings.from(c).vservers.values()).noneMatch(VserverRadius::passThrough);
        assertThat(radiusWarnings(c)).as("RADIUS-ACCT answers accounting itself (local-ack): only RADIUS-AUTH")
                .singleElement().asString().startsWith("20: vserver RADIUS-AUTH: no 'mclb radius client")
                .contains("will be dropped");
    }
}
