package io.mclb.net;

import org.slf4j.Logger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The privileged host tools mclb drives (iproute2 for virtual addresses and advertised routes):
 * found once in the system directories, each run bounded by a timeout on the caller's thread (a
 * control event, never per packet). A failure is logged with the tool's own words and answered
 * with false, never thrown: the caller retries or reports.
 */
public final class SystemCommand {
    private static final long TIMEOUT_MS = 5000;
    private static final List<String> DIRS = List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin");

    private SystemCommand() {
    }

    /** The path of {@code tool} in the system directories, or null when it is not installed. */
    public static String find(String tool) {
        for (String d : DIRS) {
            Path p = Path.of(d, tool);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }

    /**
     * Runs {@code cmd}; true when it exits 0 or its output contains {@code benign} (e.g. "No such
     * process" for a delete of what is already gone).
     */
    public static boolean run(List<String> cmd, String benign, Logger log) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                log.warn("{} timed out", String.join(" ", cmd));
                return false;
            }
            String text = new String(out, StandardCharsets.UTF_8).trim();
            if (p.exitValue() == 0 || (benign != null && text.contains(benign))) {
                return true;
            }
            log.warn("{} failed ({}): {}", String.join(" ", cmd), p.exitValue(), text);
            return false;
        } catch (IOException e) {
            log.warn("{} failed: {}", String.join(" ", cmd), e.toString());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
