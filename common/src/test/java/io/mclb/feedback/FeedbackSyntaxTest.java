package io.mclb.feedback;

import io.mclb.config.ConfigBlock;
import io.mclb.config.ConfigError;
import io.mclb.config.ConfigLine;
import io.mclb.config.Grammar;
import io.mclb.service.ConfigSyntax;
import io.mclb.config.ConfigException;
import io.mclb.config.ConfigParser;
import io.mclb.config.ConfigWriter;
import io.mclb.config.MclbConfig;
import io.mclb.service.Modules;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The load-feedback lines: records, defaults, {@code file:line} errors, running-config without secrets. */
class FeedbackSyntaxTest {
    private static final String FARM = "ip slb serverfarm F\n real 10.20.1.11\n  inservice\n"
            + "ip slb vserver V\n virtual 203.0.113.10 udp 2123\n serverfarm F\n inservice\n";

    /** Stands in for the protocol modules: their service keywords only. */
    private static final ConfigSyntax SERVICES = new ConfigSyntax() {
        @Override
        public String owner() {
            return "services";
        }

        @Override
        public Claim claimLine(ConfigBlock block, ConfigLine line) {
            return Claim.notMine();
        }

        @Override
        public List<String> services() {
            return List.of("gtp", "radius");
        }
    };

    private static MclbConfig parse(String text) throws ConfigException {
        List<ConfigSyntax> syntaxes = new ArrayList<>(Modules.of().syntaxes());
        syntaxes.add(SERVICES);
        return ConfigParser.parse("t.cfg", text, Path.of("/etc/mclb"), Grammar.of(syntaxes));
    }

    private static List<String> errors(String text) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> parse(text));
        assertThat(e).as("errors expected for:%n%s", text).isNotNull();
        return e.errors().stream().map(ConfigError::toString).toList();
    }

    /** The {@code ip slb dfp} stanza of reference configuration (a), section 5 of ios-slb-config.md. */
    @Test
    void theReferenceDfpStanzaReadsIntoRecordsWithItsTimersAndPassword() throws Exception {
        MclbConfig c = parse("ip slb dfp password 0 DfpS3cret 180\n agent 10.20.1.11 1111 30 0 10\n"
                + " agent 10.20.1.12 1111 30 0 10\n!\n" + FARM);
        FeedbackLines.ManagerConfig m = FeedbackSyntax.manager(c);
        assertThat(m.password()).isEqualTo("DfpS3cret");
        assertThat(m.passwordTimeoutSeconds()).isEqualTo(180);
        assertThat(m.agents()).hasSize(2);
        FeedbackLines.AgentLine a = m.agents().get(0);
        assertThat(a.key()).isEqualTo("10.20.1.11:1111");
        assertThat(a.timeoutSeconds()).isEqualTo(30);
        assertThat(a.retryCount()).isZero();
        assertThat(a.retryIntervalSeconds()).isEqualTo(10);

        String written = ConfigWriter.write(c);
        assertThat(written).doesNotContain("DfpS3cret").contains("ip slb dfp password 7 ").contains(" 180\n")
                .contains(" agent 10.20.1.12 1111 30 0 10\n");
        assertThat(FeedbackSyntax.manager(parse(written)).password()).as("round trip").isEqualTo("DfpS3cret");
    }

    @Test
    void defaultsOfTheAgentLineAndTheBarePasswordForm() throws Exception {
        MclbConfig c = parse("ip slb dfp password 0 DfpS3cret\n agent 10.30.1.21 1111\n" + FARM);
        FeedbackLines.ManagerConfig m = FeedbackSyntax.manager(c);
        assertThat(m.passwordTimeoutSeconds()).isEqualTo(180);
        assertThat(m.agents().get(0).timeoutSeconds()).isZero();
        assertThat(m.agents().get(0).retryCount()).isZero();
        assertThat(m.agents().get(0).retryIntervalSeconds()).isEqualTo(180);
        assertThat(FeedbackSyntax.manager(parse("ip slb dfp\n agent 10.0.0.1 8081\n" + FARM)).password()).isNull();
    }

    @Test
    void farmAndVserverLinesAndTheirNoForms() throws Exception {
        MclbConfig c = parse("ip slb dfp\n agent 10.0.0.1 8081\nip slb serverfarm F\n bindid 7\n farm-weight 200\n"
                + " real 10.20.1.11\n  inservice\nip slb serverfarm G\n bindid 7\n no bindid\n real 10.0.0.9\n  inservice\n"
                + "ip slb vserver V\n virtual 203.0.113.10 udp 1812 service radius\n serverfarm F\n"
                + " kal-ap domain ggsn.example\n inservice\n");
        assertThat(FeedbackSyntax.bindId(c.farms().get("F"))).isEqualTo(7);
        assertThat(FeedbackSyntax.farmWeight(c.farms().get("F"))).isEqualTo(200);
        assertThat(FeedbackSyntax.bindId(c.farms().get("G"))).isZero();
        assertThat(FeedbackSyntax.kalApTag(c.vservers().get("V"))).isEqualTo("ggsn.example");
        assertThat(ConfigWriter.write(c)).contains(" bindid 7\n", " farm-weight 200\n", " kal-ap domain ggsn.example\n");
    }

    @Test
    void badValuesNameTheLineTheValueAndWhatIsAllowed() {
        assertThat(errors("ip slb dfp\n agent 10.0.0.1 1111 30\n agent 10.0.0.1 99999\n agent 10.0.0.1 1111\n"
                + " frobnicate\n agent 10.0.0.2 1111 2\n" + FARM)).containsExactly(
                "t.cfg:3: agent 10.0.0.1 port 99999: out of range, allowed 1..65535",
                "t.cfg:4: agent 10.0.0.1:1111: duplicate agent",
                "t.cfg:5: ip slb dfp: unknown line 'frobnicate', allowed 'agent IP PORT [TIMEOUT [RETRY-COUNT [RETRY-INTERVAL]]]'",
                "t.cfg:6: agent 10.0.0.2 timeout 2: agents report at most every 3 s, allowed 0 or 3..65535");
        assertThat(errors("ip slb serverfarm F\n bindid 70000\n farm-weight 0\n real 10.0.0.1\n  inservice\n"
                + "ip slb vserver V\n virtual 10.0.0.100 udp 9\n serverfarm F\n kal-ap domain a/b\n inservice\n"))
                .containsExactly("t.cfg:2: bindid 70000: out of range, allowed 0..65533",
                        "t.cfg:3: farm-weight 0: out of range, allowed 1..65535",
                        "t.cfg:9: kal-ap domain a/b: not a tag, allowed 1-76 letters, digits, '.', '-', '_'");
        assertThat(errors("ip slb dfp password 0 secret 99999\n" + FARM))
                .containsExactly("t.cfg:1: ip slb dfp password timeout 99999: out of range, allowed 0..65535");
        assertThat(errors("ip slb dfp\nip slb dfp\n" + FARM)).containsExactly(
                "t.cfg:2: ip slb dfp: given twice, first at line 1 (one DFP manager; list every agent under it)");
    }

    @Test
    void theLocalAgentStanza() throws Exception {
        MclbConfig c = parse("ip dfp agent MCLB\n port 8081\n password 0 pw 60\n interval 5\n inservice\n" + FARM);
        FeedbackLines.LocalAgentConfig a = FeedbackSyntax.localAgents(c).get(0);
        assertThat(a.name()).isEqualTo("MCLB");
        assertThat(a.port()).isEqualTo(8081);
        assertThat(a.password()).isEqualTo("pw");
        assertThat(a.passwordTimeoutSeconds()).isEqualTo(60);
        assertThat(a.intervalSeconds()).isEqualTo(5);
        assertThat(a.inService()).isTrue();
        assertThat(ConfigWriter.write(c)).contains("ip dfp agent MCLB\n port 8081\n password 7 ").doesNotContain(" pw ");
        assertThat(errors("ip dfp agent X\n inservice\n" + FARM))
                .containsExactly("t.cfg:1: ip dfp agent X: inservice needs 'port N' (the TCP port managers connect to)");
        assertThat(errors("ip dfp agent X\n port 8081\n interval 0\n" + FARM))
                .containsExactly("t.cfg:3: interval 0: out of range, allowed 1..65535");
        assertThat(errors("ip dfp agent X\n port 8081\nip dfp agent Y\n port 8081\n" + FARM))
                .containsExactly("t.cfg:3: ip dfp agent Y: port 8081 is already used by ip dfp agent X");
    }

    @Test
    void cappPeersAreValidatedAndTheirSecretsNeverWrittenInClear() throws Exception {
        MclbConfig c = parse("ip slb capp udp\n peer 192.0.2.50 port 5002\n peer secret 0 KalS3cret\n" + FARM);
        assertThat(c.warnings()).map(ConfigError::toString).anySatisfy(w -> assertThat(w)
                .contains("t.cfg:1: warning: ip slb capp udp: accepted, but mclb does not answer KAL-AP queries"));
        FeedbackLines.Capp capp = c.records(FeedbackLines.Capp.class).get(0);
        assertThat(capp.peers()).hasSize(2);
        assertThat(capp.peers().get(1).address()).isNull();
        assertThat(capp.peers().get(1).secret()).isEqualTo("KalS3cret");
        assertThat(ConfigWriter.write(c)).contains(" peer secret 7 ").doesNotContain("KalS3cret");
        assertThat(errors("ip slb capp udp\n peer 192.0.2.50 port 0\n peer 192.0.2.500 port 5002\n" + FARM))
                .containsExactly("t.cfg:2: peer port 0: out of range, allowed 1..65535",
                        "t.cfg:3: peer 192.0.2.500: not an IP address (IPv4 or IPv6)");
    }

    @Test
    void iosRulesBindIdsAreNotForGprsAndFarmWeightNeedsDfp() throws Exception {
        assertThat(errors("ip slb serverfarm F\n bindid 3\n real 10.0.0.1\n  inservice\n"
                + "ip slb vserver V\n virtual 10.0.0.100 udp 2123 service gtp\n serverfarm F\n inservice\n"))
                .containsExactly("t.cfg:5: vserver V: serverfarm F has bindid 3, which GPRS load balancing does"
                        + " not support (IOS); remove it");
        MclbConfig c = parse("ip slb serverfarm F\n farm-weight 16\n real 10.0.0.1\n  inservice\n"
                + "ip slb vserver V\n virtual 10.0.0.100 udp 9\n serverfarm F\n inservice\n");
        assertThat(c.warnings()).map(ConfigError::toString).contains("t.cfg:1: warning: serverfarm F: farm-weight 16"
                + " takes effect only with 'ip slb dfp' (absolute KAL-AP load); the relative load is reported");
    }
}
