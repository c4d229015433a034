package io.mclb.sticky;

import io.mclb.testing.TestStickyKinds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A second JVM writes the table and is killed with SIGKILL mid-write: the next open must recover
 * (not block 60 s on the dead writer's segment lock) and keep every acknowledged entry.
 */
class StickyCrashRecoveryTest {
    static final long EXPIRES_S = 4_000_000_000L;
    private static final int ENTRIES = 20_000;
    private static final long CAPACITY = 50_000;

    @TempDir
    Path dir;
    private Process child;

    @AfterEach
    void killChild() {
        if (child != null) {
            child.destroyForcibly();
        }
    }

    @Test
    void entriesAcknowledgedBeforeKillNineSurviveAndOpenDoesNotBlock() throws Exception {
        child = startWriter();
        String ready = readyLine(child);
        assertThat(ready).isEqualTo("READY " + ENTRIES);

        // while the child lives, its data directory is locked against this process too
        assertThatThrownBy(() -> StickyTables.open(dir, CAPACITY))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("data directory " + dir + " is in use by another mclb process (pid " + child.pid()
                        + "): stop it, or give this one its own with --data-dir DIR or 'mclb data-dir DIR'");

        child.destroyForcibly(); // SIGKILL: no shutdown hooks, locks possibly held in the mapped file
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(dir.resolve(StickyTables.DIRTY_MARKER)).exists();

        ChronicleStickyTable table = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            ChronicleStickyTable t = StickyTables.open(dir, CAPACITY);
            // touch every key: a segment still locked by the dead writer would block here
            assertThat(countPresent(t)).isEqualTo(ENTRIES);
            return t;
        });
        try {
            assertThat(table.size()).isEqualTo(ENTRIES);
            assertThat(table.size(TestStickyKinds.GTP_IMSI)).isEqualTo(ENTRIES);
            StickyValue out = new StickyValue();
            assertThat(table.get(StickyWriterMain.key(new StickyKey(), 123), out, 0)).isTrue();
            assertThat(out.realId()).isEqualTo(123);
            table.put(StickyWriterMain.key(new StickyKey(), ENTRIES), new StickyValue().set(1, 1, EXPIRES_S));
            assertThat(table.size()).isEqualTo(ENTRIES + 1);
        } finally {
            table.close();
        }
        assertThat(dir.resolve(StickyTables.DIRTY_MARKER)).doesNotExist();
    }

    private static int countPresent(StickyTable t) {
        StickyKey key = new StickyKey();
        StickyValue out = new StickyValue();
        int present = 0;
        for (int i = 0; i < ENTRIES; i++) {
            if (t.get(StickyWriterMain.key(key, i), out, 0) && out.realId() == i) {
                present++;
            }
        }
        return present;
    }

    private Process startWriter() throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(chronicleFlags());
        cmd.add("-Xmx256m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(StickyWriterMain.class.getName());
        cmd.add(dir.toString());
        cmd.add(Long.toString(CAPACITY));
        cmd.add(Integer.toString(ENTRIES));
        return new ProcessBuilder(cmd)
                .redirectError(new File(dir.toFile(), "child.stderr"))
                .start();
    }

    /** The Chronicle flags this JVM was started with (surefire's argLine carries mclb.jvm.flags). */
    private static List<String> chronicleFlags() {
        List<String> flags = new ArrayList<>();
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens") || arg.startsWith("--add-exports") || arg.startsWith("-Dchronicle.")) {
                flags.add(arg);
            }
        }
        return flags;
    }

    private static String readyLine(Process p) throws Exception {
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII));
                return r.readLine();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        return line.get(90, TimeUnit.SECONDS);
    }
}
