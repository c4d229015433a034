package io.mclb.interop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of FreeRADIUS's {@code radclient} (package {@code freeradius-utils}) inside a
 * {@link Netns}: it sends every packet of a file (packets separated by blank lines) and checks
 * each answer's Response Authenticator with the shared secret, which makes it the judge of mclb's
 * re-signing: a badly signed answer is reported ("invalid Response Authenticator") and counts as
 * no answer.
 *
 * <p>Output facts (peers.md section 8, radclient 3.2.1 with {@code -x}): a packet sent is
 * {@code Sent <Code> Id <n> from ... to ... length <l>} followed by its attributes, one per line,
 * tab-indented; an answer is {@code Received <Code> Id <n> from ...} followed by its attributes;
 * an unanswered one {@code No reply from server for ID <n>}. Identifiers are unique among the
 * outstanding packets of its one socket, but radclient reuses the Id of an answered request for a
 * later one (seen: Id 54 for sub002, then for sub039): a {@code Sent} with the Id of an answered
 * exchange starts a new exchange. A retransmission (same Id, not yet answered) prints another
 * {@code Sent} and counts as a send of the same exchange.
 */
public final class FreeRadiusClient {
    private static final Pattern SENT = Pattern.compile("^Sent (\\S+) Id (\\d+) from .*");
    private static final Pattern RECEIVED = Pattern.compile("^Received (\\S+) Id (\\d+) from (\\S+) .*");
    private static final Pattern ATTRIBUTE = Pattern.compile("^\\t(\\S+) = (.*)$");
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(120);

    private FreeRadiusClient() {
    }

    /** A request and what answered it ({@code responseCode} empty if nothing did). */
    public record Exchange(int id, String requestCode, Map<String, String> request, String responseCode,
            String responder, Map<String, String> response, int sends) {
        public String requestAttr(String name) {
            return request.getOrDefault(name, "");
        }

        public String responseAttr(String name) {
            return response.getOrDefault(name, "");
        }
    }

    /** Everything one run printed, parsed; {@code problems} are lines reporting a failure of any kind. */
    public record Result(int exit, List<Exchange> exchanges, List<String> problems, String output) {
        public long answered(String code) {
            return exchanges.stream().filter(e -> e.responseCode().equals(code)).count();
        }
    }

    /**
     * Writes {@code packets} (each a list of {@code Attribute = value} lines) to
     * {@code <dir>/<name>.txt} and runs {@code radclient -x -r retries -t timeout -p parallel -f FILE
     * target type secret}, bounded by two minutes.
     */
    public static Result run(Netns ns, String name, List<List<String>> packets, String target, String type,
            String secret, int retries, int timeoutSeconds) throws IOException, InterruptedException {
        StringBuilder file = new StringBuilder();
        for (List<String> p : packets) {
            if (file.length() > 0) {
                file.append('\n');
            }
            for (String line : p) {
                file.append(line).append('\n');
            }
        }
        Path f = ns.dir().resolve(name + ".txt");
        Files.writeString(f, file.toString());
        Netns.Result r = ns.exec(RUN_TIMEOUT, "radclient", "-x", "-r", Integer.toString(retries),
                "-t", Integer.toString(timeoutSeconds), "-p", Integer.toString(Math.max(1, packets.size())),
                "-f", f.toString(), target, type, secret);
        Files.writeString(ns.dir().resolve(name + ".out"), r.output());
        return parse(r.exit(), r.output());
    }

    static Result parse(int exit, String output) {
        Map<Integer, Exchange> byId = new LinkedHashMap<>();
        List<Exchange> finished = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<String, String> current = null;
        for (String line : output.split("\n")) {
            Matcher m;
            Matcher a = ATTRIBUTE.matcher(line);
            if (a.matches() && current != null) {
                current.put(a.group(1), unquote(a.group(2)));
                continue;
            }
            current = null;
            if ((m = SENT.matcher(line)).matches()) {
                int id = Integer.parseInt(m.group(2));
                Exchange previous = byId.get(id);
                if (previous != null && previous.responseCode().isEmpty()) {
                    // a retransmission: same request, one more send (its attributes are printed again)
                    byId.put(id, new Exchange(id, previous.requestCode(), previous.request(), "", "",
                            previous.response(), previous.sends() + 1));
                    current = new LinkedHashMap<>();
                    continue;
                }
                if (previous != null) {
                    finished.add(previous); // the Id of an answered request, reused for a new one
                }
                Map<String, String> attrs = new LinkedHashMap<>();
                byId.put(id, new Exchange(id, m.group(1), attrs, "", "", new LinkedHashMap<>(), 1));
                current = attrs;
            } else if ((m = RECEIVED.matcher(line)).matches()) {
                int id = Integer.parseInt(m.group(2));
                Exchange e = byId.get(id);
                Map<String, String> attrs = new LinkedHashMap<>();
                if (e == null) {
                    problems.add("answer to an unknown Id: " + line);
                } else {
                    if (!e.responseCode().isEmpty()) {
                        problems.add("second answer to Id " + id + ": " + line);
                    }
                    byId.put(id, new Exchange(id, e.requestCode(), e.request(), m.group(1), m.group(3), attrs, e.sends()));
                }
                current = attrs;
            } else if (line.contains("No reply") || line.contains("invalid") || line.contains("Expected")
                    || line.contains("rror") || line.contains("Failed")) {
                problems.add(line);
            }
        }
        finished.addAll(byId.values());
        return new Result(exit, List.copyOf(finished), problems, output);
    }

    private static String unquote(String v) {
        return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
    }
}
