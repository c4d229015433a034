package io.mclb.transaction;

import io.mclb.metrics.BuildInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static io.mclb.testing.Metrics.sample;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runtime's {@code /metrics} text as Prometheus reads it: the build, JVM and process families.
 */
class EngineMetricsScrapeTest {
    @TempDir
    Path dataDir;
    private RelayHarness h;

    @AfterEach
    void stop() throws Exception {
        if (h != null) {
            h.close();
        }
    }

    @Test
    void buildJvmAndProcessFamiliesAreExported() throws Exception {
        h = new RelayHarness(dataDir, 1);
        String m = h.runtime.registry().scrape();

        assertThat(BuildInfo.version()).as("the build filtered build.properties").isNotEqualTo(BuildInfo.UNKNOWN);
        assertThat(sample(m, "mclb_build_info{commit=\"" + BuildInfo.commit() + "\",java=\""
                + System.getProperty("java.version") + "\",version=\"" + BuildInfo.version() + "\"}")).isEqualTo(1);
        assertThat(m).contains("mclb_info{transport=", "version=\"" + BuildInfo.version() + "\"");
        assertThat(m).contains("jvm_memory_used_bytes{area=\"heap\"", "jvm_gc_", "jvm_threads_live_threads ",
                "jvm_classes_loaded_classes ", "jvm_info{", "process_cpu_usage ", "process_uptime_seconds ",
                "process_start_time_seconds ", "process_files_open_files ", "system_cpu_count ");
    }
}
