package io.mclb.admin;

import io.mclb.config.ConfigParser;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code show probe [name NAME] [detail]}: the CLI's qualifiers (args) and the API's own
 * parameters pick the same rows; a probe that has not passed shows TESTING; an unknown probe or
 * qualifier is refused with what is allowed.
 */
class ProbeViewTest {
    @TempDir
    Path dir;
    private MclbRuntime rt;

    @AfterEach
    void close() {
        if (rt != null) {
            rt.close();
        }
    }

    private static List<String> column(Table t, String name) {
        return t.rows().stream().map(r -> String.valueOf(r.get(name))).toList();
    }

    @Test
    void nameAndDetailPickRowsAndColumnsAndBadQualifiersAreRefused() throws Exception {
        Modules m = Modules.of();
        rt = MclbRuntime.start(ConfigParser.parse("t.cfg", "mclb data-dir " + dir + "\nmclb event-loops 1\n"
                + "ip slb probe A tcp\n interval 30\n"
                + "ip slb probe B custom udp\n request data 0 6d636c62\n interval 30\n"
                + "ip slb serverfarm F\n probe A\n probe B\n real 127.0.0.61 9\n  inservice\n real 127.0.0.62 9\n"
                + "  inservice\n"
                + "ip slb vserver V\n virtual 127.0.0.100 udp 9\n serverfarm F\n inservice\n", dir, m.grammar()),
                m, ServingGate.ALWAYS, new ManualClock());

        Table all = ProbeView.table(rt, ShowArgs.of("probe", Map.of()), Map.of());
        assertThat(column(all, "probe")).containsExactlyInAnyOrder("A", "A", "B", "B");
        assertThat(column(all, "state")).as("not passed yet").containsOnly("TESTING");
        assertThat(all.toText()).doesNotContain("reason");

        Table typed = ProbeView.table(rt, ShowArgs.of("probe", Map.of("args", "name A detail")), Map.of());
        assertThat(column(typed, "probe")).containsExactly("A", "A");
        assertThat(column(typed, "type")).containsOnly("tcp");
        assertThat(column(typed, "real")).containsExactlyInAnyOrder("127.0.0.61:9", "127.0.0.62:9");
        assertThat(typed.toText()).contains("reason", "interval_s");
        Table api = ProbeView.table(rt, ShowArgs.of("probe", Map.of()), Map.of("name", "A", "detail", "1"));
        assertThat(column(api, "real")).isEqualTo(column(typed, "real"));
        assertThat(api.toText()).contains("reason");

        assertThatThrownBy(() -> ProbeView.table(rt, ShowArgs.of("probe", Map.of("args", "name C")), Map.of()))
                .isInstanceOf(ShowArgs.BadQualifier.class).hasMessage("show probe name C: no such probe attached to a real");
        assertThatThrownBy(() -> ProbeView.table(rt, ShowArgs.of("probe", Map.of("args", "detial")), Map.of()))
                .isInstanceOf(ShowArgs.BadQualifier.class)
                .hasMessage("show probe: unexpected 'detial'; allowed: name NAME, detail");
    }
}
