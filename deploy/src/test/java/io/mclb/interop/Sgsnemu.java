package io.mclb.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of osmo-ggsn's SGSN emulator {@code sgsnemu} inside a {@link Netns}: it creates
 * {@code contexts} PDP contexts toward {@code remote}, the test looks at the live contexts, then
 * SIGTERM makes sgsnemu delete them (it would otherwise wait for its coarse {@code --timelimit}
 * and exit about 30 s later), and the process is stopped.
 *
 * <p>Facts this relies on (peers.md section 7, checked with osmo-ggsn 1.9.0): {@code -r} takes
 * an address only (2123 for v1, 3386 for v0 are fixed), {@code -l} binds those ports too, so
 * every concurrent run needs its own local address; context {@code k} uses IMSI + k x 10;
 * stdout is block-buffered into a pipe, hence {@code stdbuf -oL}. sgsnemu first sends an Echo
 * Request to {@code remote}. The Delete goes to the GGSN's GSN Address from the create response,
 * which is not necessarily {@code remote}.
 */
public final class Sgsnemu {
    private static final Pattern EUA = Pattern.compile("received EUA with IP address: (\\S+)");
    private static final Pattern REJECT = Pattern.compile("Received create PDP context response\\. Cause value: (\\d+)");
    private static final Pattern DELETED = Pattern.compile("Received delete PDP context response\\. Cause value: (\\d+)");
    private static final String TIMED_OUT = "Create PDP Context Request timed out";

    private Sgsnemu() {
    }

    /** What to run: sgsnemu on {@code local} toward {@code remote}, GTP {@code version} 0 or 1, NSAPI {@code nsapi}. */
    public record Options(String local, String remote, long imsi, int version, int contexts, int nsapi) {
        public Options(String local, String remote, long imsi, int version, int contexts) {
            this(local, remote, imsi, version, contexts, 0);
        }

        /** The IMSI of each context, as sgsnemu derives them. */
        public List<String> imsis() {
            List<String> l = new ArrayList<>();
            for (int k = 0; k < contexts; k++) {
                l.add(Long.toString(imsi + 10L * k));
            }
            return l;
        }
    }

    /** What sgsnemu reported: addresses it got, create causes other than 128, delete causes. */
    public record Result(Options options, List<String> euas, List<Integer> rejectCauses, int timeouts,
            List<Integer> deleteCauses, String log) {
        public int accepted() {
            return euas.size();
        }
    }

    /** A look at the established contexts before they are deleted. */
    @FunctionalInterface
    public interface WhileActive {
        void check(Result established) throws Exception;
    }

    /**
     * Runs sgsnemu until every create is answered (or {@code timeout}), calls {@code whileActive},
     * then has it delete its contexts and stops it. Never leaves the process running.
     */
    public static Result run(Netns ns, String logName, Options o, Duration timeout, WhileActive whileActive)
            throws Exception {
        Path state = ns.dir().resolve(logName + "-state");
        Files.createDirectories(state);
        NsProcess p = ns.start(logName, List.of("stdbuf", "-oL", "sgsnemu",
                "-l", o.local(), "-r", o.remote(),
                "--imsi", String.format("%015d", o.imsi()), "--msisdn", "491711234567",
                "--apn", OsmoGgsn.APN, "--gtpversion", Integer.toString(o.version()),
                "--contexts", Integer.toString(o.contexts()), "--nsapi", Integer.toString(o.nsapi()),
                "--timelimit", "120", // the test ends the run with SIGTERM long before
                "--statedir", state.toString(), "--pidfile", state.resolve("sgsnemu.pid").toString()));
        try {
            p.awaitLog(l -> answered(parse(o, l)) >= o.contexts(), timeout);
            Result established = parse(o, p.lines());
            if (whileActive != null) {
                whileActive.check(established);
            }
            p.terminate();
            int expectDeletes = established.accepted();
            p.awaitLog(l -> parse(o, l).deleteCauses().size() >= expectDeletes, Duration.ofSeconds(15));
            return parse(o, p.lines());
        } finally {
            p.stop(Duration.ofSeconds(2));
        }
    }

    private static int answered(Result r) {
        return r.accepted() + r.rejectCauses().size() + r.timeouts();
    }

    private static Result parse(Options o, List<String> lines) {
        List<String> euas = new ArrayList<>();
        List<Integer> rejects = new ArrayList<>();
        List<Integer> deletes = new ArrayList<>();
        int timeouts = 0;
        for (String line : lines) {
            Matcher m;
            if ((m = EUA.matcher(line)).find()) {
                euas.add(m.group(1));
            } else if ((m = REJECT.matcher(line)).find()) {
                rejects.add(Integer.parseInt(m.group(1)));
            } else if ((m = DELETED.matcher(line)).find()) {
                deletes.add(Integer.parseInt(m.group(1)));
            } else if (line.contains(TIMED_OUT)) {
                timeouts++;
            }
        }
        return new Result(o, List.copyOf(euas), List.copyOf(rejects), timeouts, List.copyOf(deletes), String.join("\n", lines));
    }

    /** Convenience for tests that do not look at live contexts. */
    public static Result run(Netns ns, String logName, Options o, Duration timeout) throws Exception {
        return run(ns, logName, o, timeout, null);
    }
}
