package io.mclb.radius.lb;

import io.mclb.config.ConfigException;
import io.mclb.config.ConfigParser;
import io.mclb.config.ConfigWriter;
import io.mclb.config.MclbConfig;
import io.mclb.radius.codec.RadiusSecret;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The RADIUS lines: accepted forms, secrets obfuscated in running-config, validation rules. */
class RadiusConfigTest {
    @TempDir
    Path dir;

    private MclbConfig parse(String text) throws Exception {
        return ConfigParser.parse("t.cfg", text, dir, io.mclb.service.Modules.of(new RadiusServiceModule()).grammar());
    }

    private static String ports(String t) {
        return t.replace("AUTH5", "1812").replace("AUTH6", "1812").replace("AUTH7", "1812")
                .replace("ACCT5", "1813").replace("ACCT6", "1813").replace("ACCT7", "1813")
                .replace("VAUTH", "1812").replace("VACCT", "1813").replace("DATA", "./data");
    }

    @Test
    void theIssueConfigIsAcceptedAndRunningConfigNeverPrintsASecret() throws Exception {
        String text = ports(RadiusHarness.issueConfig("", " radius inject auth vsa cisco\n idle radius request 20\n",
                " radius acct local-ack key 0 ack-secret\n idle radius framed-ip 3600\n"))
                + "ip slb probe AAA-SS radius\n interval 5\n faildetect 2\n timeout 2\n"
                + " access-request user probe password 0 probe-pw\n";
        MclbConfig c = parse(text);
        String running = ConfigWriter.write(c);
        assertThat(running).doesNotContain("nas-secret", "aaa-secret", "ack-secret", "probe-pw")
                .contains("mclb radius client 127.0.0.0 255.0.0.0 key 7 ", "mclb radius key 7 ",
                        "radius acct local-ack key 7 ", "password 7 ");
        MclbConfig again = parse(running);
        assertThat(ConfigWriter.write(again)).isEqualTo(running);
        RadiusSettings s = RadiusSettings.from(again);
        assertThat(s.clients.secretOf(InetAddress.getByName("127.0.0.1"))).isEqualTo(RadiusSecret.ofString("nas-secret"));
        assertThat(s.clients.secretOf(InetAddress.getByName("10.0.0.1"))).isNull();
        VserverRadius acct = s.vservers.get("RADIUS-ACCT");
        assertThat(acct.localAck()).isEqualTo(RadiusSecret.ofString("ack-secret"));
        assertThat(acct.framedIpGroup()).isEqualTo(2);
        assertThat(acct.purgeOnOff()).isTrue();
        assertThat(acct.subscriberSeconds()).isEqualTo(3600);
        VserverRadius auth = s.vservers.get("RADIUS-AUTH");
        assertThat(auth.learnGroup()).as("shares group 2 with the framed-ip sticky of RADIUS-ACCT").isEqualTo(2);
        assertThat(auth.requestTimeoutMs()).isEqualTo(20_000);
        assertThat(auth.injectAuth()).isTrue();
        assertThat(s.probes.get("AAA-SS").password()).isEqualTo(RadiusSecret.ofString("probe-pw"));
        assertThat(RadiusSettings.realSecret(again.farms().get("AAA-FARM").reals().get(0)))
                .isEqualTo(RadiusSecret.ofString("aaa-secret"));
    }

    static final String ISSUE_CONFIG = String.join("\n",
            "mclb admin 127.0.0.1 18080",
            "mclb data-dir ./data",
            "mclb radius client 127.0.0.0 255.0.0.0 key 0 nas-secret",
            "ip slb serverfarm AAA-FARM",
            " real 127.0.0.5 1812", "  mclb radius key 0 aaa-secret", "  inservice",
            " real 127.0.0.6 1812", "  mclb radius key 0 aaa-secret", "  inservice",
            " real 127.0.0.7 1812", "  mclb radius key 0 aaa-secret", "  inservice",
            "ip slb serverfarm AAA-ACCT",
            " real 127.0.0.5 1813", "  mclb radius key 0 aaa-secret", "  inservice",
            " real 127.0.0.6 1813", "  mclb radius key 0 aaa-secret", "  inservice",
            " real 127.0.0.7 1813", "  mclb radius key 0 aaa-secret", "  inservice",
            "ip slb vserver RADIUS-AUTH",
            " virtual 127.0.0.100 udp 1812 service radius",
            " serverfarm AAA-FARM",
            " sticky radius calling-station-id group 2",
            " inservice",
            "ip slb vserver RADIUS-ACCT",
            " virtual 127.0.0.100 udp 1813 service radius",
            " serverfarm AAA-ACCT",
            " sticky radius calling-station-id group 2",
            " sticky radius framed-ip group 2",
            " purge radius framed-ip acct on-off",
            " inservice",
            "! auth and accounting of one Calling-Station-Id reach the same AAA address",
            "");

    @Test
    void theIssueConfigVerbatimIsAccepted() throws Exception {
        MclbConfig c = parse(ISSUE_CONFIG);
        assertThat(c.warnings()).isEmpty();
        RadiusSettings s = RadiusSettings.from(c);
        assertThat(s.vservers.get("RADIUS-AUTH").callingStationGroup()).isEqualTo(2);
        assertThat(s.vservers.get("RADIUS-ACCT").purgeOnOff()).isTrue();
        assertThat(ConfigWriter.write(c)).doesNotContain("nas-secret", "aaa-secret");
    }

    @Test
    void longestPrefixPicksTheNasSecret() throws Exception {
        MclbConfig c = parse(ports(RadiusHarness.issueConfig(
                "mclb radius client 127.0.0.9 255.255.255.255 key 7 " + RadiusSecret.ofString("host").toType7(3) + "\n",
                "", "")));
        RadiusSettings s = RadiusSettings.from(c);
        assertThat(s.clients.secretOf(InetAddress.getByName("127.0.0.9"))).isEqualTo(RadiusSecret.ofString("host"));
        assertThat(s.clients.secretOf(InetAddress.getByName("127.0.0.8"))).isEqualTo(RadiusSecret.ofString("nas-secret"));
    }

    private void refused(String text, String... fragments) {
        assertThatThrownBy(() -> parse(text)).isInstanceOf(ConfigException.class)
                .hasMessageContainingAll(fragments)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("aaa-secret", "nas-secret"));
    }

    @Test
    void radiusFarmsUseWeightedRoundRobinAndEveryRealNeedsAKey() {
        String base = ports(RadiusHarness.issueConfig("", "", ""));
        refused(base.replace("ip slb serverfarm AAA-FARM\n", "ip slb serverfarm AAA-FARM\n predictor leastconns\n"),
                "predictor leastconns not allowed");
        refused(base.replaceFirst("  mclb radius key 0 aaa-secret\n", ""), "needs its shared secret");
        refused(base.replaceFirst("key 0 aaa-secret", "key 0"), "mclb radius key");
        refused(base.replace("sticky radius framed-ip group 2", "sticky radius imsi"), "sticky radius", "imsi");
        refused(base.replace("purge radius framed-ip acct on-off", "purge radius framed-ip acct sometimes"),
                "purge radius");
    }

    @Test
    void routeMapFarmRules() throws Exception {
        String ok = ports(RadiusEdgeTest.routeMapConfig());
        assertThat(parse(ok).farms().get("ROUTED").routeMap()).isEqualTo("CSG");
        refused(ok.replace("predictor route-map CSG", "predictor route-map NOPE"), "no such route-map");
        refused(ok.replace(" predictor route-map CSG\n", " predictor route-map CSG\n probe X\n"),
                "takes no further farm lines");
        refused(ok.replace("serverfarm ROUTED backup AAA-ACCT", "serverfarm ROUTED"), "backup");
        refused(ok.replace(" set ip next-hop 127.0.0.6\n", ""), "next-hop");
        refused(ok.replace("access-list 110 permit ip 10.9.0.0 0.0.255.255 any",
                "access-list 110 deny ip 10.9.0.0 0.0.255.255 any"), "permit");
    }

    @Test
    void radiusLinesNeedARadiusVirtualServer() {
        String text = ports(RadiusHarness.issueConfig("", "", "")) + "ip slb vserver PLAIN\n virtual 127.0.0.100 udp 9999\n"
                + " serverfarm AAA-FARM\n sticky radius username\n inservice\n";
        refused(text, "needs 'service radius'");
    }
}
