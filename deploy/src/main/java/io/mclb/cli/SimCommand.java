package io.mclb.cli;

import io.mclb.perf.gtp.sim.CauseMix;
import io.mclb.perf.gtp.sim.GgsnSimulator;
import io.mclb.perf.mobility.MobilitySimulator;
import io.mclb.perf.radius.sim.AaaFailure;
import io.mclb.perf.radius.sim.AaaSimulator;
import io.mclb.perf.udp.UdpResponderFarm;
import io.mclb.radius.codec.RadiusCodes;
import io.mclb.radius.codec.RadiusSecret;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code mclb sim udp --listen ADDR:PORT ...}: a simulated UDP farm (echo responders);
 * {@code mclb sim gtp --listen ADDR:PORT ...}: a GGSN/PGW simulator (GTP v0/v1/v2) for tests and load;
 * {@code mclb sim radius --listen ADDR:AUTHPORT ... --secret S}: an AAA server (auth on each address,
 * accounting on the same address at {@code --acct-port}, default AUTHPORT + 1);
 * {@code mclb sim mip --listen ADDR:434 ... [--code-mix 0:95,130:5]}: home agents;
 * {@code mclb sim asn --listen ADDR:2231 ...}: WiMAX ASN gateways (R6 requests answered).
 */
@Command(name = "sim", mixinStandardHelpOptions = true,
        description = "Run protocol simulators on loopback (udp: echo responders; gtp: GGSN/PGW; radius: AAA server;"
                + " mip: home agents; asn: WiMAX ASN gateways).")
public final class SimCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "simulator: udp | gtp | radius | mip | asn")
    String kind;

    @Option(names = {"-l", "--listen"}, required = true, split = ",",
            description = "ADDR:PORT to answer on (repeat or comma-separate for a farm)")
    List<String> listen;

    @Option(names = "--duration", description = "seconds to run (default: until Ctrl-C)")
    long durationSeconds;

    @Option(names = "--cause-mix", description = "gtp: v0/v1 create causes CAUSE:WEIGHT,... (default ${DEFAULT-VALUE})",
            defaultValue = "128")
    String causeMix;

    @Option(names = "--cause-mix-v2", description = "gtp: v2 create causes (default: the v1 mix mapped, 128->16, 199->73 ...)")
    String causeMixV2;

    @Option(names = "--secret", description = "radius: shared secret of every client")
    String secret;

    @Option(names = "--acct-port", description = "radius: accounting port on every listen address (default: auth port + 1)")
    Integer acctPort;

    @Option(names = "--reject-pct", description = "radius: share of Access-Requests rejected (default ${DEFAULT-VALUE})",
            defaultValue = "0")
    int rejectPercent;

    @Option(names = "--drop-pct", description = "radius: share of requests left unanswered (default ${DEFAULT-VALUE})",
            defaultValue = "0")
    int dropPercent;

    @Option(names = "--failure", description = "radius: none | silent | wrong-secret (default ${DEFAULT-VALUE})",
            defaultValue = "none")
    String failure;

    @Option(names = "--password", description = "radius: the only User-Password accepted (default: any)")
    String password;

    @Option(names = "--framed-pool", description = "radius: Framed-IP-Address pool CIDR (default ${DEFAULT-VALUE})",
            defaultValue = "10.64.0.0/10")
    String framedPool;

    @Option(names = "--code-mix", description = "mip: registration reply codes CODE:WEIGHT,... (default ${DEFAULT-VALUE})",
            defaultValue = "0")
    String codeMix;

    @Option(names = "--latency-us", description = "gtp, radius, mip, asn: delay every response (default ${DEFAULT-VALUE})", defaultValue = "0")
    long latencyMicros;

    @Option(names = "--recovery", description = "gtp: restart counter 0..255 (default ${DEFAULT-VALUE})", defaultValue = "1")
    int recovery;

    @Option(names = "--seed", description = "gtp: seed of the cause draws (default ${DEFAULT-VALUE})", defaultValue = "1")
    long seed;

    @Override
    public Integer call() throws Exception {
        if (!List.of("udp", "gtp", "radius", "mip", "asn").contains(kind)) {
            System.err.println("mclb sim: unknown simulator '" + kind + "', available: udp, gtp, radius, mip, asn");
            return 2;
        }
        List<InetSocketAddress> addrs = new ArrayList<>();
        for (String l : listen) {
            addrs.add(Addresses.parse(l));
        }
        if (kind.equals("gtp")) {
            return runGtp(addrs);
        }
        if (kind.equals("radius")) {
            return runRadius(addrs);
        }
        if (kind.equals("mip") || kind.equals("asn")) {
            return runMobility(addrs);
        }
        try (UdpResponderFarm farm = UdpResponderFarm.start(addrs)) {
            System.out.println("mclb sim udp: answering on " + farm.boundAddresses());
            long end = durationSeconds > 0 ? System.nanoTime() + durationSeconds * 1_000_000_000L : Long.MAX_VALUE;
            long last = 0;
            while (System.nanoTime() < end) {
                Thread.sleep(1000);
                long now = farm.totalReceived();
                System.out.printf("received %d/s (total %d)%n", now - last, now);
                last = now;
            }
        }
        return 0;
    }

    private int runMobility(List<InetSocketAddress> addrs) throws InterruptedException {
        try (MobilitySimulator sim = kind.equals("mip")
                ? MobilitySimulator.homeAgents(addrs, CauseMix.parse(codeMix), latencyMicros, seed)
                : MobilitySimulator.asnGateways(addrs, latencyMicros)) {
            System.out.println("mclb sim " + kind + ": answering on " + sim.boundAddresses()
                    + (kind.equals("mip") ? " (codes " + codeMix + ")" : ""));
            long end = durationSeconds > 0 ? System.nanoTime() + durationSeconds * 1_000_000_000L : Long.MAX_VALUE;
            long last = 0;
            while (System.nanoTime() < end) {
                Thread.sleep(1000);
                long now = sim.answered();
                System.out.printf("answered %d/s (total %d, unanswered %d)%n", now - last, now, sim.unanswered());
                last = now;
            }
        }
        return 0;
    }

    private int runGtp(List<InetSocketAddress> addrs) throws InterruptedException {
        GgsnSimulator.Builder b = GgsnSimulator.builder().causeMix(CauseMix.parse(causeMix)).latencyMicros(latencyMicros)
                .recovery(recovery).seed(seed);
        if (causeMixV2 != null) {
            b.causeMixV2(CauseMix.parse(causeMixV2));
        }
        addrs.forEach(b::listen);
        try (GgsnSimulator sim = b.start()) {
            System.out.println("mclb sim gtp: answering on " + sim.boundAddresses() + " (recovery " + sim.recovery()
                    + ", causes " + causeMix + ")");
            long end = durationSeconds > 0 ? System.nanoTime() + durationSeconds * 1_000_000_000L : Long.MAX_VALUE;
            long last = 0;
            while (System.nanoTime() < end) {
                Thread.sleep(1000);
                long creates = 0;
                for (int v = 0; v <= 2; v++) {
                    creates += sim.received(v, v == 2 ? 32 : 16);
                }
                System.out.printf("creates %d/s (total %d)  sessions %d  malformed %d%n", creates - last, creates,
                        sim.activeSessions(), sim.malformed());
                last = creates;
            }
        }
        return 0;
    }

    private int runRadius(List<InetSocketAddress> addrs) throws InterruptedException {
        if (secret == null || secret.isEmpty()) {
            System.err.println("mclb sim radius: --secret is required");
            return 2;
        }
        AaaFailure mode;
        try {
            mode = AaaFailure.valueOf(failure.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            System.err.println("mclb sim radius: --failure must be none, silent or wrong-secret");
            return 2;
        }
        AaaSimulator.Builder b = AaaSimulator.builder().secret(RadiusSecret.ofString(secret)).rejectPercent(rejectPercent)
                .dropPercent(dropPercent).failure(mode)
                .latencyMicros(latencyMicros).seed(seed).framedPool(framedPool).password(password);
        for (InetSocketAddress a : addrs) {
            b.listenAuth(a);
            b.listenAcct(new InetSocketAddress(a.getAddress(), acctPort != null ? acctPort : a.getPort() + 1));
        }
        try (AaaSimulator sim = b.start()) {
            System.out.println("mclb sim radius: auth on " + sim.authAddresses() + ", accounting on " + sim.acctAddresses());
            long end = durationSeconds > 0 ? System.nanoTime() + durationSeconds * 1_000_000_000L : Long.MAX_VALUE;
            long lastAuth = 0;
            long lastAcct = 0;
            while (System.nanoTime() < end) {
                Thread.sleep(1000);
                long auth = sim.received(RadiusCodes.ACCESS_REQUEST);
                long acct = sim.received(RadiusCodes.ACCOUNTING_REQUEST);
                System.out.printf("access %d/s (total %d)  accounting %d/s (total %d)  bad authenticators %d  malformed %d%n",
                        auth - lastAuth, auth, acct - lastAcct, acct, sim.badAuthenticators(), sim.malformed());
                lastAuth = auth;
                lastAcct = acct;
            }
        }
        return 0;
    }
}
