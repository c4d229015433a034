package io.mclb.interop;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * mclb as a separate JVM inside a {@link Netns} ({@code ip netns exec NS java ... io.mclb.Main}):
 * mclb must share the namespace with its peers, and a JVM cannot change namespace itself. The
 * class path is the test JVM's (it holds deploy and every module); the JVM flags are the test
 * JVM's own Chronicle flags ({@code --add-opens}, {@code --add-exports}, {@code -Dchronicle.*}),
 * which the build's argLine gives it.
 *
 * <p>The admin listener is inside the namespace too, so it is read with python3's urllib run
 * there (python3 comes with python3-scapy; no curl needed).
 */
public final class MclbProcess {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final Netns ns;
    private final NsProcess process;
    private final String adminHost;
    private final int adminPort;

    private MclbProcess(Netns ns, NsProcess process, String adminHost, int adminPort) {
        this.ns = ns;
        this.process = process;
        this.adminHost = adminHost;
        this.adminPort = adminPort;
    }

    /**
     * Runs {@code mclb run -c cfg}; returns once {@code GET /metrics} on 127.0.0.1:{@code adminPort}
     * answers (the config must say {@code mclb admin 127.0.0.1 adminPort}). Fails fast, with the
     * log, if mclb exits first (e.g. it refused the configuration).
     */
    public static MclbProcess start(Netns ns, Path cfg, int adminPort) throws IOException, InterruptedException {
        return awaitAdmin(ns, startJava(ns, "mclb", "run", "-c", cfg.toString()), adminPort);
    }

    /**
     * Runs {@code ./mclb run -c cfg} as an operator does: the repository's launcher script, which
     * runs the jar and class path this build packaged (system property {@code mclb.launcher}
     * names another launcher, e.g. an older build's, to compare). Returns once the admin listener answers.
     */
    public static MclbProcess startLauncher(Netns ns, Path cfg, int adminPort) throws IOException, InterruptedException {
        return startLauncher(ns, "mclb", List.of(), cfg, adminPort);
    }

    /** {@link #startLauncher(Netns, Path, int)} under a command {@code wrapper} (e.g. setpriv), logged as {@code logName}. */
    public static MclbProcess startLauncher(Netns ns, String logName, List<String> wrapper, Path cfg, int adminPort)
            throws IOException, InterruptedException {
        String launcher = System.getProperty("mclb.launcher",
                Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent().resolve("mclb").toString());
        // the build under test already packaged the jar: never let the launcher rebuild mid-test
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.addAll(List.of("env", "MCLB_NO_BUILD=1", launcher, "run", "-c", cfg.toString()));
        return awaitAdmin(ns, ns.start(logName, cmd), adminPort);
    }

    /** {@link #start(Netns, Path, int)} for an admin listener on {@code adminHost} (the config's {@code mclb admin} line). */
    public static MclbProcess start(Netns ns, Path cfg, String adminHost, int adminPort) throws IOException, InterruptedException {
        return awaitAdmin(ns, startJava(ns, "mclb-" + adminHost, "run", "-c", cfg.toString()), adminHost, adminPort);
    }

    private static MclbProcess awaitAdmin(Netns ns, NsProcess p, int adminPort) throws IOException, InterruptedException {
        return awaitAdmin(ns, p, "127.0.0.1", adminPort);
    }

    private static MclbProcess awaitAdmin(Netns ns, NsProcess p, String adminHost, int adminPort)
            throws IOException, InterruptedException {
        MclbProcess m = new MclbProcess(ns, p, adminHost, adminPort);
        long end = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            if (!p.isAlive()) {
                throw new IllegalStateException("mclb exited (code " + p.waitFor(Duration.ZERO) + ") before its admin listener answered; log:\n" + p.tail(40));
            }
            Netns.Result r = m.getRaw("/metrics");
            if (r.exit() == 0) {
                return m;
            }
            if (System.nanoTime() > end) {
                throw new IllegalStateException("mclb admin did not answer within " + START_TIMEOUT + ": " + r.output() + "\nlog:\n" + p.tail(40));
            }
            Thread.sleep(500);
        }
    }

    /**
     * Copies the classpath resource {@code interop/<name>} into the namespace's directory,
     * replacing {@code @DATA_DIR@} (a fresh directory there) and {@code @ADMIN_PORT@}.
     */
    public static Path writeConfig(Netns ns, String name, int adminPort) throws IOException {
        return writeResource(ns, name, text -> text.replace("@DATA_DIR@", ns.dir().resolve("mclb-data").toString())
                .replace("@ADMIN_PORT@", Integer.toString(adminPort)));
    }

    /** Copies the classpath resource {@code interop/<name>} into the namespace's directory, edited by {@code edit}. */
    public static Path writeResource(Netns ns, String name, java.util.function.UnaryOperator<String> edit) throws IOException {
        try (java.io.InputStream in = MclbProcess.class.getResourceAsStream("/interop/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no resource interop/" + name);
            }
            Path out = ns.dir().resolve(name);
            java.nio.file.Files.writeString(out, edit.apply(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)));
            return out;
        }
    }

    /** Runs {@code io.mclb.Main args...} in the namespace with the test JVM's class path and Chronicle flags. */
    public static NsProcess startJava(Netns ns, String logName, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaBinary());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-opens") || a.startsWith("--add-exports") || a.startsWith("-Dchronicle")) {
                cmd.add(a);
            }
        }
        cmd.add("-Xmx512m");
        cmd.add("-cp");
        // failsafe's forked JVM may run from a manifest-only jar; the real class path is in this property then
        cmd.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        cmd.add("io.mclb.Main");
        cmd.addAll(List.of(args));
        return ns.start(logName, cmd);
    }

    private static String javaBinary() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    public NsProcess process() {
        return process;
    }

    /** {@code GET path} on the admin listener; fails unless it answers 200. */
    public String get(String path) throws IOException, InterruptedException {
        return getRaw(path).check("GET " + path).output();
    }

    /** The HTTP status of {@code GET path} (e.g. 503 from {@code /api/v1/kal-ap/TAG} while offline). */
    public int status(String path) throws IOException, InterruptedException {
        String url = "http://" + adminHost + ":" + adminPort + path;
        Netns.Result r = ns.exec(Duration.ofSeconds(15), "/usr/bin/python3", "-c",
                "import sys, urllib.request, urllib.error\n"
                        + "try:\n    print(urllib.request.urlopen(sys.argv[1], timeout=5).status)\n"
                        + "except urllib.error.HTTPError as e:\n    print(e.code)", url).check("GET " + path);
        return Integer.parseInt(r.output().strip());
    }

    /** The Prometheus text of {@code /metrics}. */
    public String metrics() throws IOException, InterruptedException {
        return get("/metrics");
    }

    private Netns.Result getRaw(String path) throws IOException, InterruptedException {
        String url = "http://" + adminHost + ":" + adminPort + path;
        return ns.exec(Duration.ofSeconds(15), "/usr/bin/python3", "-c",
                "import sys, urllib.request\n"
                        + "sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())",
                url);
    }

    /**
     * Sum of the samples of {@code metric} whose line contains every one of {@code labelParts}
     * (e.g. {@code vserver="GGSN-GN"}); 0 if none.
     */
    public static double sum(String exposition, String metric, String... labelParts) {
        double total = 0;
        for (String line : exposition.split("\n")) {
            if (!line.startsWith(metric + "{") && !line.startsWith(metric + " ")) {
                continue;
            }
            boolean all = true;
            for (String part : labelParts) {
                all &= line.contains(part);
            }
            if (all) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }
}
