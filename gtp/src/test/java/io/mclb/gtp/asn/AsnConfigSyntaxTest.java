package io.mclb.gtp.asn;

import io.mclb.config.ConfigException;
import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.gtp.lb.GtpServiceModule;
import io.mclb.service.Modules;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The ASN lines as records, with {@code file:line} errors naming the value and what is allowed. */
class AsnConfigSyntaxTest {
    @TempDir
    Path dir;

    private MclbConfig parse(String text) throws Exception {
        return ConfigParser.parse("asn.cfg", text, dir, Modules.of(new GtpServiceModule(), new AsnServiceModule())
                .grammar());
    }

    private static final String D = "ip slb serverfarm ASNGW-FARM\n failaction asn purge\n"
            + " real 10.40.1.31\n  inservice\n real 10.40.1.32\n  inservice\n"
            + "ip slb vserver ASN-R6\n virtual 203.0.113.40 udp 2231 service asn\n serverfarm ASNGW-FARM\n"
            + " sticky asn msid group 4\n idle asn request 30\n idle asn msid 7200\n inservice\n";

    @Test
    void referenceConfigurationDParsesIntoRecords() throws Exception {
        MclbConfig c = parse(D);
        AsnVserverSettings s = AsnVserverSettings.of(c.vservers().get("ASN-R6"));
        assertThat(s).isEqualTo(new AsnVserverSettings(true, 4, 30, 7200));
        assertThat(c.farms().get("ASNGW-FARM").record(AsnLines.FailactionPurge.class)).isNotNull();
    }

    @Test
    void badLinesNameWhatIsAllowed() {
        assertThatThrownBy(() -> parse(D.replace("group 4", "group 40000"))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("asn.cfg:10: sticky asn msid group 40000: out of range, allowed 0..32767");
        assertThatThrownBy(() -> parse(D.replace("sticky asn msid group 4", "sticky asn imsi")))
                .hasMessageContaining("asn.cfg:10: expected 'sticky asn msid [group N]'");
        assertThatThrownBy(() -> parse(D.replace("failaction asn purge", "failaction asn reassign")))
                .hasMessageContaining("asn.cfg:2: expected 'failaction asn purge'");
        assertThatThrownBy(() -> parse(D.replace("idle asn msid 7200", "idle asn session 7200")))
                .hasMessageContaining("asn.cfg:12: expected 'idle asn request SECONDS' or 'idle asn msid SECONDS'");
        assertThatThrownBy(() -> parse(D.replace("service asn", "")))
                .hasMessageContaining("asn.cfg:10: 'sticky asn msid group 4' needs 'service asn' on vserver ASN-R6");
    }
}
