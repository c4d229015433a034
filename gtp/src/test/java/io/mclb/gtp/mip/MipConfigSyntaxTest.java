package io.mclb.gtp.mip;

import io.mclb.config.ConfigError;
import io.mclb.config.ConfigException;
import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.gtp.lb.GtpServiceModule;
import io.mclb.service.Modules;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** IOS's Home Agent Director rules are {@code mclb check} errors naming the line and the rule. */
class MipConfigSyntaxTest {
    @TempDir
    Path dir;

    private static final String FARM = "ip slb serverfarm HA-FARM\n"
            + " real 10.30.1.21\n  inservice\n"
            + " real 10.30.1.22\n  inservice\n";

    private MclbConfig parse(String text) throws Exception {
        return ConfigParser.parse("ha.cfg", text, dir, Modules.of(new GtpServiceModule(), new MipServiceModule())
                .grammar());
    }

    private List<String> errors(String text) {
        try {
            parse(text);
        } catch (ConfigException e) {
            return e.errors().stream().map(ConfigError::toString).toList();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("no error for:\n" + text);
    }

    private static String vserver(String... lines) {
        StringBuilder b = new StringBuilder("ip slb vserver HA-DIRECTOR\n virtual 203.0.113.30 udp 434 service ipmobile\n"
                + " serverfarm HA-FARM\n");
        for (String l : lines) {
            b.append(' ').append(l).append('\n');
        }
        return b.append(" inservice\n").toString();
    }

    @Test
    void referenceConfigurationCParsesIntoRecords() throws Exception {
        MclbConfig c = parse(FARM + vserver("idle ipmobile request 30"));
        assertThat(c.vservers().get("HA-DIRECTOR").service()).isEqualTo("ipmobile");
        assertThat(c.vservers().get("HA-DIRECTOR").record(MipLines.IdleRequest.class).seconds()).isEqualTo(30);
    }

    @Test
    void aLeastConnectionsFarmCannotBePutInService() {
        assertThat(errors(FARM.replace("HA-FARM\n", "HA-FARM\n predictor leastconns\n") + vserver()))
                .singleElement().asString()
                .startsWith("ha.cfg:7: vserver HA-DIRECTOR (service ipmobile): the Home Agent Director balances with "
                        + "weighted round robin only, but serverfarm HA-FARM has 'predictor leastconns'")
                .endsWith("it cannot be put in service (IOS)");
    }

    @Test
    void aLeastConnectionsFarmOnAVserverNotInServiceIsOnlyAWarning() throws Exception {
        MclbConfig c = parse(FARM.replace("HA-FARM\n", "HA-FARM\n predictor leastconns\n")
                + vserver().replace(" inservice\n", ""));
        assertThat(c.warnings()).anySatisfy(w -> assertThat(w.message()).contains("'inservice' will be refused"));
    }

    @Test
    void stickyClientRulesBindIdsAndStatefulBackupAreRefusedWithIosReasons() {
        assertThat(errors(FARM + vserver("sticky 60"))).singleElement().asString()
                .contains("the Home Agent Director takes no sticky (IOS)");
        assertThat(errors(FARM + vserver("client 10.0.0.0 255.0.0.0"))).singleElement().asString()
                .contains("takes no client rules (IOS)");
        assertThat(errors(FARM.replace("HA-FARM\n", "HA-FARM\n bindid 5\n") + vserver())).singleElement().asString()
                .startsWith("ha.cfg:2: ").contains("does not support bind IDs (IOS)");
        assertThat(errors(FARM + vserver("replicate casa 10.0.200.2 10.0.200.3 4231"))).singleElement().asString()
                .startsWith("ha.cfg:9: ").contains("IOS has no stateful backup for the Home Agent Director");
    }

    @Test
    void aBindIdInAnotherFarmOrAReplicateLineOnAnotherServiceIsNotTheDirectorsConcern() throws Exception {
        MclbConfig c = parse(FARM + "ip slb serverfarm OTHER\n bindid 3\n real 10.30.1.30\n  inservice\n"
                + vserver() + "ip slb vserver UDP\n virtual 203.0.113.31 udp 9000\n serverfarm OTHER\n"
                + " replicate casa 10.0.200.2 10.0.200.3 4231\n inservice\n");
        assertThat(c.vservers()).hasSize(2);
    }

    @Test
    void badValuesAndMisplacedLinesNameWhatIsAllowed() {
        assertThat(errors(FARM + vserver("idle ipmobile request 0"))).singleElement().asString()
                .isEqualTo("ha.cfg:9: idle ipmobile request 0: out of range, allowed 1..65535");
        assertThat(errors(FARM + vserver("idle ipmobile 30"))).singleElement().asString()
                .isEqualTo("ha.cfg:9: expected 'idle ipmobile request SECONDS' (1..65535)");
        assertThatThrownBy(() -> parse(FARM + "ip slb vserver X\n virtual 203.0.113.30 udp 9000\n serverfarm HA-FARM\n"
                + " idle ipmobile request 30\n inservice\n")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("'idle ipmobile request 30' needs 'service ipmobile' on vserver X");
    }
}
