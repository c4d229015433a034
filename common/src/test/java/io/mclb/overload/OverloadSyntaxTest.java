package io.mclb.overload;

import io.mclb.config.ConfigWriter;
import io.mclb.config.MclbConfig;
import io.mclb.overload.OverloadLines.MaxTransactions;
import io.mclb.overload.OverloadLines.SynGuard;
import org.junit.jupiter.api.Test;

import static io.mclb.testing.EngineConfig.errors;
import static io.mclb.testing.EngineConfig.parse;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code synguard N [INTERVAL]} and {@code mclb max-transactions N}: records, defaults, errors, round trip. */
class OverloadSyntaxTest {
    private static final String FARM = """
            ip slb serverfarm F
             real 10.0.0.1 2123
              inservice
            """;

    private static String vserver(String lines) {
        return "ip slb vserver V\n virtual 10.9.9.9 udp 2123\n serverfarm F\n" + lines + " inservice\n";
    }

    @Test
    void synguardTakesIosDefaultIntervalAndALaterNoTurnsItOff() throws Exception {
        assertThat(OverloadSyntax.synGuard(parse(FARM + vserver(" synguard 20\n")).vservers().get("V")))
                .isEqualTo(new SynGuard(20, 100));
        assertThat(OverloadSyntax.synGuard(parse(FARM + vserver(" synguard 20 250\n")).vservers().get("V")))
                .isEqualTo(new SynGuard(20, 250));
        assertThat(OverloadSyntax.synGuard(parse(FARM + vserver("")).vservers().get("V")).on()).isFalse();
        assertThat(OverloadSyntax.synGuard(parse(FARM + vserver(" synguard 0\n")).vservers().get("V")).on())
                .as("IOS: 0 is off").isFalse();
        assertThat(OverloadSyntax.synGuard(parse(FARM + vserver(" synguard 20\n no synguard\n")).vservers().get("V"))
                .on()).isFalse();
    }

    @Test
    void maxTransactionsIsGlobalWithADefault() throws Exception {
        assertThat(OverloadSyntax.maxTransactions(parse(FARM))).isEqualTo(MaxTransactions.DEFAULT);
        assertThat(OverloadSyntax.maxTransactions(parse("mclb max-transactions 5000\n" + FARM)).perLoop())
                .isEqualTo(5000);
    }

    @Test
    void badValuesNameTheValueAndWhatIsAllowed() {
        assertThat(errors(FARM + vserver(" synguard 20 10\n")))
                .containsExactly("t.cfg:7: synguard 20 interval 10: out of range, allowed 50..5000");
        assertThat(errors(FARM + vserver(" synguard many\n")))
                .containsExactly("t.cfg:7: synguard many: not a number, allowed 0..4294967295");
        assertThat(errors(FARM + vserver(" synguard 20 100 extra\n")).get(0)).startsWith("t.cfg:7: synguard 20 100");
        assertThat(errors("mclb max-transactions 0\n" + FARM))
                .containsExactly("t.cfg:1: mclb max-transactions 0: out of range, allowed 1..67108864");
        assertThat(errors("mclb max-transactions 10\nmclb max-transactions 20\n" + FARM))
                .containsExactly("t.cfg:2: mclb max-transactions: given twice, first at line 1");
    }

    @Test
    void runningConfigWritesTheLinesBackAndTheyParseToTheSameRecords() throws Exception {
        MclbConfig c = parse("mclb max-transactions 5000\n" + FARM + vserver(" synguard 20 250\n"));
        String written = ConfigWriter.write(c);
        assertThat(written).contains("mclb max-transactions 5000\n").contains(" synguard 20 250\n");
        MclbConfig again = parse(written);
        assertThat(OverloadSyntax.synGuard(again.vservers().get("V"))).isEqualTo(new SynGuard(20, 250));
        assertThat(OverloadSyntax.maxTransactions(again).perLoop()).isEqualTo(5000);
        assertThat(ConfigWriter.write(again)).isEqualTo(written);
    }
}
