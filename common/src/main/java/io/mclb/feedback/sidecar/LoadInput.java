package io.mclb.feedback.sidecar;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A number the sidecar reads from next to its real: PDP contexts, bindings, free CPU... Every read
 * is bounded in time; a failed read is an {@link IOException} naming the source and what went wrong.
 *
 * <p>Sources ({@link #parse}):
 * <ul>
 * <li>{@code prometheus:URL#METRIC} or {@code prometheus:URL#METRIC{label="v",...}}: the sum of the
 *     samples of METRIC (text exposition format) whose labels include the given ones;</li>
 * <li>{@code file:PATH}: the file's text;</li>
 * <li>{@code command:SHELL COMMAND}: the standard output of {@code sh -c COMMAND} (exit 0 within 5 s);</li>
 * <li>{@code osmo-vty:HOST:PORT}: osmo-ggsn's VTY, {@code show ggsn}, the sum of its
 *     {@code PDP contexts: N} lines (one per SGSN peer; checked against osmo-ggsn 1.9).</li>
 * </ul>
 * For text sources the value is the sum of the first group of {@code extract} over all matches
 * (default: the first number in the text).
 */
public interface LoadInput {
    Duration TIMEOUT = Duration.ofSeconds(5);
    Pattern FIRST_NUMBER = Pattern.compile("(-?[0-9]+(?:\\.[0-9]+)?)");

    double read() throws IOException;

    /** The source as written, for messages. */
    String describe();

    static LoadInput parse(String spec, Pattern extract) {
        int colon = spec.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(spec + ": allowed prometheus:URL#METRIC, file:PATH, command:CMD, "
                    + "osmo-vty:HOST:PORT");
        }
        String kind = spec.substring(0, colon);
        String rest = spec.substring(colon + 1);
        Pattern p = extract == null ? FIRST_NUMBER : extract;
        return switch (kind) {
            case "prometheus" -> PrometheusText.input(spec, rest);
            case "file" -> text(spec, () -> Files.readString(Path.of(rest), StandardCharsets.UTF_8), p, true);
            case "command" -> text(spec, () -> command(rest), p, true);
            case "osmo-vty" -> text(spec, () -> osmoVty(rest), Pattern.compile("PDP contexts: ([0-9]+)"), false);
            default -> throw new IllegalArgumentException(spec + ": unknown source '" + kind
                    + "', allowed prometheus, file, command, osmo-vty");
        };
    }

    /** A source of text. */
    interface Text {
        String get() throws IOException;
    }

    private static LoadInput text(String spec, Text source, Pattern p, boolean needMatch) {
        return new LoadInput() {
            @Override
            public double read() throws IOException {
                String t = source.get();
                Matcher m = p.matcher(t);
                double sum = 0;
                boolean any = false;
                while (m.find()) {
                    sum += Double.parseDouble(m.groupCount() >= 1 ? m.group(1) : m.group());
                    any = true;
                    if (p == FIRST_NUMBER) {
                        break;
                    }
                }
                if (!any && needMatch) {
                    throw new IOException(spec + ": no number in its output");
                }
                return sum;
            }

            @Override
            public String describe() {
                return spec;
            }
        };
    }

    private static String command(String cmd) throws IOException {
        Process p = new ProcessBuilder("sh", "-c", cmd).redirectErrorStream(false)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        try (InputStream in = p.getInputStream()) {
            byte[] out = in.readNBytes(1 << 20);
            if (!p.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IOException("command:" + cmd + ": did not finish within " + TIMEOUT.toSeconds() + " s");
            }
            if (p.exitValue() != 0) {
                throw new IOException("command:" + cmd + ": exit " + p.exitValue());
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("command:" + cmd + ": interrupted", e);
        }
    }

    /** One VTY session: read the banner, {@code show ggsn}, read until the prompt comes back. */
    private static String osmoVty(String hostPort) throws IOException {
        int c = hostPort.lastIndexOf(':');
        if (c < 0) {
            throw new IOException("osmo-vty:" + hostPort + ": expected HOST:PORT");
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(hostPort.substring(0, c), Integer.parseInt(hostPort.substring(c + 1))),
                    (int) TIMEOUT.toMillis());
            s.setSoTimeout((int) TIMEOUT.toMillis());
            InputStream in = s.getInputStream();
            readUntilPrompt(in);
            s.getOutputStream().write("show ggsn\r\n".getBytes(StandardCharsets.US_ASCII));
            return readUntilPrompt(in);
        } catch (NumberFormatException e) {
            throw new IOException("osmo-vty:" + hostPort + ": bad port", e);
        }
    }

    private static String readUntilPrompt(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0 && sb.length() < (1 << 20)) {
            sb.append((char) b);
            // the VTY prompt "OsmoGGSN> " (or "#" when enabled) ends a command's answer
            int n = sb.length();
            if (n >= 2 && sb.charAt(n - 1) == ' ' && (sb.charAt(n - 2) == '>' || sb.charAt(n - 2) == '#')) {
                return sb.toString();
            }
        }
        throw new IOException("VTY closed before its prompt");
    }

    /** {@code prometheus:URL#METRIC{...}}. */
    final class PrometheusText {
        private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

        private PrometheusText() {
        }

        static LoadInput input(String spec, String rest) {
            int hash = rest.indexOf('#');
            if (hash < 0) {
                throw new IllegalArgumentException(spec + ": expected prometheus:URL#METRIC");
            }
            URI uri = URI.create(rest.substring(0, hash));
            String selector = rest.substring(hash + 1);
            return new LoadInput() {
                @Override
                public double read() throws IOException {
                    HttpResponse<String> r;
                    try {
                        r = HTTP.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).build(),
                                HttpResponse.BodyHandlers.ofString());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException(spec + ": interrupted", e);
                    }
                    if (r.statusCode() != 200) {
                        throw new IOException(spec + ": HTTP " + r.statusCode());
                    }
                    return sum(r.body(), selector, spec);
                }

                @Override
                public String describe() {
                    return spec;
                }
            };
        }

        /** The sum of the samples of {@code selector}'s metric carrying all its labels; an error when none does. */
        static double sum(String exposition, String selector, String spec) throws IOException {
            int brace = selector.indexOf('{');
            String name = brace < 0 ? selector : selector.substring(0, brace);
            String[] wanted = brace < 0 ? new String[0]
                    : selector.substring(brace + 1, selector.length() - 1).split(",");
            double total = 0;
            boolean any = false;
            for (String line : exposition.split("\n")) {
                if (line.startsWith("#") || !(line.startsWith(name + "{") || line.startsWith(name + " "))) {
                    continue;
                }
                int end = line.indexOf('}');
                String labels = end < 0 ? "" : line.substring(name.length() + 1, end);
                boolean all = true;
                for (String w : wanted) {
                    all &= w.isBlank() || (labels + ",").contains(w.strip() + ",");
                }
                if (all) {
                    String[] parts = line.substring(end < 0 ? name.length() : end + 1).strip().split("\\s+");
                    total += Double.parseDouble(parts[0]);
                    any = true;
                }
            }
            if (!any) {
                throw new IOException(spec + ": no sample of " + selector);
            }
            return total;
        }
    }
}
