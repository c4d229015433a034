package io.mclb.cli;

import io.mclb.perf.gtp.load.GtpLoadGenerator;
import io.mclb.perf.load.LoadProgress;
import io.mclb.perf.load.LoadRun;
import io.mclb.perf.load.SettingOutOfRange;
import io.mclb.perf.mobility.AsnLoad;
import io.mclb.perf.mobility.MipLoad;
import io.mclb.perf.mobility.MobilityLoadGenerator;
import io.mclb.perf.radius.load.RadiusLoadGenerator;
import io.mclb.perf.udp.UdpTrafficGenerator;
import io.mclb.radius.codec.RadiusSecret;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;

/**
 * {@code mclb loadgen udp -t ADDR:PORT}: paced (or closed-loop) UDP request/response load with
 * loss and latency; {@code mclb loadgen gtp -t ADDR:PORT}: GTP Create (PDP Context / Session) load
 * over a range of IMSIs; {@code mclb loadgen radius -t ADDR:PORT --secret S --kind auth|acct}:
 * Access- or Accounting-Requests over a range of subscribers, every answer verified;
 * {@code mclb loadgen mip|asn -t ADDR:PORT}: Mobile IP Registration Requests over distinct NAIs /
 * WiMAX R6 MS_PreAttachment_Req over distinct MSIDs. Bounded by {@code --warmup} plus {@code --duration}. For the C reference tool see perf/bench.
 * No standard {@code --version} option here: {@code --version} selects the GTP version.
 */
@Command(name = "loadgen",
        description = "Generate UDP request/response, GTP create or RADIUS load against a virtual server (loopback or your own namespaces).")
public final class LoadgenCommand implements Callable<Integer> {
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Parameters(index = "0", description = "generator: udp | gtp | radius | mip | asn")
    String kind;

    @Option(names = {"-t", "--target"}, required = true, description = "ADDR:PORT")
    String target;

    @Option(names = "--rate", description = "requests/s, 0 = closed loop (default 1000; gtp: closed loop when only --window is given)")
    Long rateOption;

    @Option(names = "--flows", description = "client sockets (default 64; gtp 8)")
    Integer flowsOption;

    @Option(names = "--window", description = "closed loop: requests outstanding per flow (default 4; gtp 32)")
    Integer windowOption;

    @Option(names = {"--version", "--gtp-version"}, description = "gtp: 0, 1 or 2 (default ${DEFAULT-VALUE})", defaultValue = "1")
    int gtpVersion;

    @Option(names = "--imsis", description = "gtp: distinct IMSIs, used in turn (default ${DEFAULT-VALUE})", defaultValue = "1000000")
    long imsis;

    @Option(names = "--imsi-base", description = "gtp: first IMSI, 15 digits (default ${DEFAULT-VALUE})",
            defaultValue = "001010000000000")
    String imsiBase;

    @Option(names = "--churn", description = "gtp: delete every accepted session right away")
    boolean churn;

    @Option(names = "--apn", description = "gtp: APN (default ${DEFAULT-VALUE})", defaultValue = "internet")
    String apn;

    @Option(names = "--secret", description = "radius: shared secret with the target")
    String secret;

    @Option(names = "--kind", description = "radius: auth | acct (default ${DEFAULT-VALUE})", defaultValue = "auth")
    String radiusKind;

    @Option(names = "--subscribers", description = "radius: distinct subscribers, used in turn (default ${DEFAULT-VALUE})",
            defaultValue = "100000")
    long subscribers;

    @Option(names = "--password", description = "radius: User-Password (default ${DEFAULT-VALUE})", defaultValue = "mclb-password")
    String password;

    @Option(names = "--no-message-authenticator", description = "radius: send requests without Message-Authenticator")
    boolean noMessageAuthenticator;

    @Option(names = "--framed-hint", description = "radius: Access-Requests carry the subscriber's Framed-IP-Address "
            + "(10.64.0.0 + i, as its accounting does) as a hint, which mclb sim radius grants")
    boolean framedHint;

    @Option(names = "--nais", description = "mip: distinct NAIs, used in turn (default ${DEFAULT-VALUE})",
            defaultValue = "1000000")
    long nais;

    @Option(names = "--lifetime", description = "mip: requested lifetime, 0 = deregistrations (default ${DEFAULT-VALUE})",
            defaultValue = "1800")
    int lifetime;

    @Option(names = "--msids", description = "asn: distinct MSIDs, used in turn (default ${DEFAULT-VALUE})",
            defaultValue = "1000000")
    long msids;

    @Option(names = "--source", description = "first source address (default ${DEFAULT-VALUE})", defaultValue = "127.0.0.1")
    String source;

    @Option(names = "--sources", description = "spread flows over this many consecutive source addresses (default ${DEFAULT-VALUE})",
            defaultValue = "1")
    int sources;

    @Option(names = "--duration", description = "seconds (default ${DEFAULT-VALUE}, at most 600)", defaultValue = "10")
    long durationSeconds;

    @Option(names = "--timeout-ms", description = "a request unanswered this long is lost (default ${DEFAULT-VALUE})",
            defaultValue = "1000")
    long timeoutMs;

    @Option(names = "--warmup", description = "seconds of load before the measured --duration, in the same process and"
            + " sockets; RESULT counts only the measured seconds (default ${DEFAULT-VALUE}, at most 600)", defaultValue = "0")
    long warmupSeconds;

    /** The generators' names of the settings this command has options for ({@code LoadBuilder} and the protocols'). */
    private static final Map<String, String> OPTION_OF_SETTING = Map.of("sockets", "--flows", "window", "--window",
            "ratePerSecond", "--rate", "timeoutMs", "--timeout-ms", "sourceCount", "--sources", "imsiCount", "--imsis",
            "imsiBase", "--imsi-base");

    @Override
    public Integer call() throws Exception {
        try {
            return generate();
        } catch (SettingOutOfRange e) {
            // say it with the option the operator typed, not the builder's name
            System.err.println("mclb loadgen " + kind + ": "
                    + e.describedAs(OPTION_OF_SETTING.getOrDefault(e.setting(), e.setting())));
            return 2;
        }
    }

    private int generate() throws Exception {
        if (!java.util.List.of("udp", "gtp", "radius", "mip", "asn").contains(kind)) {
            System.err.println("mclb loadgen: unknown generator '" + kind + "', available: udp, gtp, radius, mip, asn");
            return 2;
        }
        long seconds = Math.max(1, Math.min(600, durationSeconds));
        if (warmupSeconds < 0 || warmupSeconds > 600) {
            System.err.println("mclb loadgen: --warmup must be 0..600 seconds, not " + warmupSeconds);
            return 2;
        }
        if (kind.equals("mip") || kind.equals("asn")) {
            return runMobility(seconds);
        }
        if (kind.equals("gtp")) {
            return runGtp(seconds);
        }
        if (kind.equals("radius")) {
            return runRadius(seconds);
        }
        long rate = rateOption != null ? rateOption : 1000;
        int flows = flowsOption != null ? flowsOption : 64;
        int window = windowOption != null ? windowOption : 4;
        UdpTrafficGenerator.Builder b = UdpTrafficGenerator.builder().target(Addresses.parse(target))
                .source(InetAddress.getByName(source)).sourceCount(sources).flows(flows).timeoutMs(timeoutMs)
                .maxDuration(Duration.ofSeconds(warmupSeconds + seconds));
        if (rate > 0) {
            b.ratePerSecond(rate);
        } else {
            b.ratePerSecond(0).windowPerFlow(window);
        }
        try (UdpTrafficGenerator g = b.start()) {
            UdpTrafficGenerator.Snapshot x = report(g, seconds, (prev, now) -> String.format(
                    "sent %6d/s  answered %6d/s  lost %d  p50 %.3f ms  p99 %.3f ms", now.sent() - prev.sent(),
                    now.answered() - prev.answered(), now.lost(), now.p50Micros() / 1000.0, now.p99Micros() / 1000.0));
            System.out.printf("RESULT sent=%d answered=%d lost=%d rps=%d p50_us=%d p99_us=%d max_us=%d%n", x.sent(),
                    x.answered(), x.lost(), x.answered() / seconds, x.p50Micros(), x.p99Micros(), x.maxMicros());
            return x.lost() == 0 ? 0 : 1;
        }
    }

    /**
     * Prints a line a second ({@code line} of the previous and the current snapshot) until the run is
     * done, and returns the counters of the measured seconds: with a warm-up, the final snapshot less
     * the one taken when the warm-up ended (whose latency histogram started then).
     */
    private <S extends LoadProgress> S report(LoadRun<S> g, long seconds, BiFunction<S, S, String> line)
            throws InterruptedException {
        if (warmupSeconds > 0) {
            g.markAfter(Duration.ofSeconds(warmupSeconds));
        }
        long startNanos = System.nanoTime();
        S prev = g.snapshot();
        long total = warmupSeconds + seconds;
        for (long s = 1; !g.isDone() && s <= total + timeoutMs / 1000 + 2; s++) {
            // on the start's clock, not a second after the last line: "(warm-up over)" is printed as the
            // window starts, which the bench scripts wait for before they count mclb's CPU
            Thread.sleep(Math.max(0, (startNanos + s * 1_000_000_000L - System.nanoTime()) / 1_000_000));
            S now = g.snapshot();
            System.out.printf("[%3ds] %s%s%n", s, line.apply(prev, now), s == warmupSeconds ? "  (warm-up over)" : "");
            prev = now;
        }
        S last = g.snapshot();
        if (warmupSeconds == 0) {
            return last;
        }
        S base = g.marked();
        if (base == null) {
            throw new IllegalStateException("the warm-up never ended: the generator's loop did not run");
        }
        return g.since(last, base);
    }

    private int runGtp(long seconds) throws Exception {
        long rate = rateOption != null ? rateOption : windowOption != null ? 0 : 1000;
        GtpLoadGenerator.Builder b = GtpLoadGenerator.builder().target(Addresses.parse(target))
                .source(InetAddress.getByName(source)).version(gtpVersion).sockets(flowsOption != null ? flowsOption : 8)
                .ratePerSecond(rate).window(windowOption != null ? windowOption : 32).imsiCount(imsis)
                .imsiBase(Long.parseLong(imsiBase)).churn(churn).apn(apn).timeoutMs(timeoutMs)
                .maxDuration(Duration.ofSeconds(warmupSeconds + seconds));
        try (GtpLoadGenerator g = b.start()) {
            GtpLoadGenerator.Snapshot x = report(g, seconds, (prev, now) -> String.format(
                    "creates %6d/s  accepted %6d/s  rejected %d  lost %d  deletes %d/s  p50 %.3f ms  p99 %.3f ms",
                    now.creates() - prev.creates(), now.accepted() - prev.accepted(), now.rejected(), now.lost(),
                    now.deletes() - prev.deletes(), now.p50Micros() / 1000.0, now.p99Micros() / 1000.0));
            System.out.printf("RESULT version=%d sent=%d answered=%d accepted=%d rejected=%d lost=%d deletes=%d"
                            + " deletes_accepted=%d unmatched=%d rps=%d p50_us=%d p99_us=%d max_us=%d%n",
                    gtpVersion, x.creates(), x.answered(), x.accepted(), x.rejected(), x.lost(), x.deletes(),
                    x.deletesAccepted(), x.unmatched(), x.answered() / seconds, x.p50Micros(), x.p99Micros(), x.maxMicros());
            return x.lost() == 0 ? 0 : 1;
        }
    }

    private int runMobility(long seconds) throws Exception {
        long rate = rateOption != null ? rateOption : windowOption != null ? 0 : 1000;
        MobilityLoadGenerator.Builder b = MobilityLoadGenerator.builder(kind.equals("mip") ? new MipLoad(lifetime)
                        : new AsnLoad(0x0002_0000_0000L))
                .target(Addresses.parse(target)).source(InetAddress.getByName(source))
                .sockets(flowsOption != null ? flowsOption : 8).ratePerSecond(rate)
                .window(windowOption != null ? windowOption : 32).subscribers(kind.equals("mip") ? nais : msids)
                .timeoutMs(timeoutMs).maxDuration(Duration.ofSeconds(warmupSeconds + seconds));
        try (MobilityLoadGenerator g = b.start()) {
            MobilityLoadGenerator.Snapshot x = report(g, seconds, (prev, now) -> String.format(
                    "sent %6d/s  accepted %6d/s  rejected %d  lost %d  p50 %.3f ms  p99 %.3f ms", now.sent() - prev.sent(),
                    now.accepted() - prev.accepted(), now.rejected(), now.lost(), now.p50Micros() / 1000.0,
                    now.p99Micros() / 1000.0));
            System.out.printf("RESULT kind=%s sent=%d answered=%d accepted=%d rejected=%d lost=%d unmatched=%d rps=%d"
                            + " p50_us=%d p99_us=%d max_us=%d%n", kind, x.sent(), x.answered(), x.accepted(), x.rejected(),
                    x.lost(), x.unmatched(), x.answered() / seconds, x.p50Micros(), x.p99Micros(), x.maxMicros());
            return x.lost() == 0 ? 0 : 1;
        }
    }

    private int runRadius(long seconds) throws Exception {
        if (secret == null || secret.isEmpty()) {
            System.err.println("mclb loadgen radius: --secret is required");
            return 2;
        }
        if (!radiusKind.equals("auth") && !radiusKind.equals("acct")) {
            System.err.println("mclb loadgen radius: --kind must be auth or acct");
            return 2;
        }
        long rate = rateOption != null ? rateOption : windowOption != null ? 0 : 1000;
        RadiusLoadGenerator.Builder b = RadiusLoadGenerator.builder().target(Addresses.parse(target))
                .source(InetAddress.getByName(source)).secret(RadiusSecret.ofString(secret))
                .kind(radiusKind.equals("acct") ? RadiusLoadGenerator.Kind.ACCT : RadiusLoadGenerator.Kind.AUTH)
                .sockets(flowsOption != null ? flowsOption : 8).ratePerSecond(rate)
                .window(windowOption != null ? windowOption : 32).subscribers(subscribers).password(password)
                .messageAuthenticator(!noMessageAuthenticator).framedHint(framedHint).timeoutMs(timeoutMs).maxDuration(Duration.ofSeconds(warmupSeconds + seconds));
        try (RadiusLoadGenerator g = b.start()) {
            RadiusLoadGenerator.Snapshot x = report(g, seconds, (prev, now) -> String.format(
                    "sent %6d/s  answered %6d/s  bad %d  lost %d  p50 %.3f ms  p99 %.3f ms", now.sent() - prev.sent(),
                    now.answered() - prev.answered(), now.badAuthenticators(), now.lost(), now.p50Micros() / 1000.0,
                    now.p99Micros() / 1000.0));
            System.out.printf("RESULT kind=%s sent=%d answered=%d accepts=%d rejects=%d acct_responses=%d bad_auth=%d"
                            + " lost=%d unmatched=%d rps=%d p50_us=%d p99_us=%d max_us=%d%n",
                    radiusKind, x.sent(), x.answered(), x.accepts(), x.rejects(), x.acctResponses(),
                    x.badAuthenticators(), x.lost(), x.unmatched(), x.answered() / seconds, x.p50Micros(), x.p99Micros(),
                    x.maxMicros());
            return x.lost() == 0 && x.badAuthenticators() == 0 ? 0 : 1;
        }
    }
}
