package io.mclb.cli;

import io.mclb.Main;
import io.mclb.server.MclbServer;
import io.mclb.service.Modules;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code mclb stop --no-handover} through the real command line against a running server: the
 * server hears the flag (its answer says it stops without handing over), stops in order, and the
 * command returns once the admin listener is gone.
 */
class StopCommandTest {
    @TempDir
    Path dir;

    @Test
    void stopAsksTheRunningServerToStopAndWaitsUntilItIsGone() throws Exception {
        int admin = io.mclb.testing.Ports.freeTcp("127.0.0.1");
        int vport = io.mclb.testing.Ports.freeUdp("127.0.0.1");
        Path cfg = dir.resolve("mclb.cfg");
        Files.writeString(cfg, "mclb admin 127.0.0.1 " + admin + "\nmclb data-dir " + dir.resolve("data")
                + "\nmclb sticky entries 1000\n"
                + "ip slb serverfarm F\n real 127.0.0.11 9\n  inservice\n"
                + "ip slb vserver V\n virtual 127.0.0.1 udp " + vport + "\n serverfarm F\n inservice\n");
        MclbServer server = MclbServer.start(cfg, Modules.load());
        CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> {
            try {
                server.awaitStop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        int rc;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            rc = new CommandLine(new Main()).execute("stop", "--no-handover", "-c", cfg.toString()); // the local socket: no token
        } finally {
            System.setOut(saved);
            server.close();
        }
        assertThat(rc).as("stdout: %s", out).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).lines())
                .containsExactly("mclb is stopping without handing over (an active HA group's standby stays standby)",
                        "stopped");
        stopped.get(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS);
    }
}
