package io.mclb.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A tshark capture on the namespace's loopback, and the decoder used as an independent checker:
 * what Wireshark's dissectors make of every datagram, including whether any is malformed.
 *
 * <p>Field names that work with tshark 4.0 (peers.md section 9): {@code e212.imsi} (not
 * {@code gtp.imsi}), {@code gtp.message}, {@code gtp.cause}, {@code gtp.tid} (v0),
 * {@code gtpv2.cause}, {@code gtpv2.message_type}. Rows are read with
 * {@code -E occurrence=f}: the first occurrence of each field.
 */
public final class Tshark {
    /** Frames Wireshark could not decode, or decoded with an error-level expert note. */
    public static final String PROBLEMS = "_ws.malformed || _ws.expert.severity >= \"Error\"";

    private final NsProcess process;
    private final Path file;

    private Tshark(NsProcess process, Path file) {
        this.process = process;
        this.file = file;
    }

    /** Starts capturing {@code captureFilter} (BPF) on {@code lo}; returns once tshark says it captures. */
    public static Tshark start(Netns ns, String logName, String captureFilter) throws IOException, InterruptedException {
        return start(ns, logName, "lo", captureFilter);
    }

    /** Starts capturing {@code captureFilter} (BPF) on interface {@code iface} of the namespace. */
    public static Tshark start(Netns ns, String logName, String iface, String captureFilter)
            throws IOException, InterruptedException {
        Path file = ns.dir().resolve(logName + ".pcapng");
        NsProcess p = ns.start(logName, List.of("tshark", "-q", "-i", iface, "-f", captureFilter, "-w", file.toString()));
        if (!p.awaitLog(l -> l.stream().anyMatch(s -> s.contains("Capturing on")), Duration.ofSeconds(30))) {
            p.stop(Duration.ofSeconds(2));
            throw new IllegalStateException("tshark did not start capturing; log:\n" + p.tail(20));
        }
        // "Capturing on" is printed before dumpcap captures: a CI run lost the first creates in
        // that gap. tshark 4.0 logs "Capture started" once dumpcap confirms; wait for it (builds
        // that do not log it are given the same bounded wait and then trusted).
        p.awaitLog(l -> l.stream().anyMatch(s -> s.contains("Capture started")), Duration.ofSeconds(5));
        return new Tshark(p, file);
    }

    public Path file() {
        return file;
    }

    /**
     * Ends the capture; tshark flushes the file on SIGTERM. The short pause is for the capture
     * path (kernel to dumpcap to tshark), which has no event to wait on; no timer is involved.
     */
    public void stop() throws InterruptedException {
        Thread.sleep(500);
        process.stop(Duration.ofSeconds(10));
    }

    /** Decodes the capture: one map (field to first value, "" if absent) per frame matching {@code displayFilter}. */
    public List<Map<String, String>> rows(String displayFilter, String... fields) throws IOException, InterruptedException {
        return rows(file, displayFilter, fields);
    }

    /** As {@link #rows(String, String...)}, for any capture file. */
    public static List<Map<String, String>> rows(Path pcap, String displayFilter, String... fields)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("tshark", "-r", pcap.toString(), "-Y", displayFilter,
                "-T", "fields", "-E", "separator=|", "-E", "occurrence=f"));
        for (String f : fields) {
            cmd.add("-e");
            cmd.add(f);
        }
        String out = read(cmd);
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            String[] v = line.split("\\|", -1);
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < fields.length; i++) {
                row.put(fields[i], i < v.length ? v[i] : "");
            }
            rows.add(row);
        }
        return rows;
    }

    /** Frames of this capture within {@code scope} (a display filter) that are malformed or carry an error. */
    public List<String> problems(String scope) throws IOException, InterruptedException {
        return problems(file, scope);
    }

    public static List<String> problems(Path pcap, String scope) throws IOException, InterruptedException {
        String filter = "(" + scope + ") && (" + PROBLEMS + ")";
        return rows(pcap, filter, "frame.number", "ip.src", "udp.srcport", "ip.dst", "udp.dstport", "_ws.col.Info",
                "_ws.expert.message").stream().map(Map::toString).toList();
    }

    /** Number of frames matching {@code displayFilter}. */
    public int count(String displayFilter) throws IOException, InterruptedException {
        return rows(displayFilter, "frame.number").size();
    }

    /**
     * The IMSI inside a GTPv0 TID as tshark prints {@code gtp.tid}: the 8 TID octets with the
     * whole hex string reversed (so "2000000000102026" for IMSI 262010000000002, NSAPI 0).
     * Reversing it back gives the octets; each octet holds two TBCD digits, low nibble first;
     * the 16th digit is the NSAPI.
     */
    public static String imsiOfV0Tid(String tid) {
        if (tid.length() != 16) {
            return "";
        }
        String octets = new StringBuilder(tid).reverse().toString();
        StringBuilder digits = new StringBuilder(16);
        for (int i = 0; i < 16; i += 2) {
            digits.append(octets.charAt(i + 1)).append(octets.charAt(i));
        }
        return digits.substring(0, 15).replace("f", "").replace("F", "");
    }

    private static String read(List<String> cmd) throws IOException, InterruptedException {
        Path out = Files.createTempFile("tshark", ".out");
        Path err = Files.createTempFile("tshark", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("tshark timed out: " + cmd);
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("tshark failed (exit " + p.exitValue() + "): " + cmd + "\n"
                        + Files.readString(err, StandardCharsets.UTF_8));
            }
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
