package io.mclb.feedback.sidecar;

import io.mclb.feedback.dfp.DfpAgentServer;
import io.mclb.feedback.dfp.HostWeight;
import io.mclb.net.Transports;
import io.mclb.time.NanoClock;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.EventLoopGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@code mclb dfp-agent}: a DFP agent for a real that has none (osmo-ggsn, a PGW, an AAA server, a
 * home agent). Every interval it reads the real's load from its inputs, computes the weight with a
 * {@link WeightFormula}, and serves it to the DFP managers that connect, as host (real IP, port,
 * protocol, bind ID). A failed read leaves the agent without an opinion: it disconnects its
 * managers, which fall back to their static weights, until a read succeeds again (a stale weight is
 * worse than none). Reads run on their own thread, never on the DFP loop.
 */
public final class SidecarAgent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SidecarAgent.class);

    /**
     * What the sidecar reports and how it computes it.
     *
     * @param cpuFree  idle CPU as a share 0..1 or percent 0..100 (values above 1 are percent), null = not measured
     * @param memFree  the same for free memory
     */
    public record Settings(InetSocketAddress listen, InetAddress real, int port, int protocol, int bindId,
                           WeightFormula formula, LoadInput current, long capacity, int maxWeight, LoadInput cpuFree,
                           LoadInput memFree, int intervalSeconds, String password) {
    }

    /** One computed weight, for the operator's log line. */
    public record Sample(int weight, double current, double cpuFree, double memFree, String error) {
    }

    private final Settings settings;
    private final EventLoopGroup group = Transports.newGroup(1, "mclb-dfp-agent");
    private final ScheduledExecutorService reader = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mclb-dfp-agent-read");
        t.setDaemon(true);
        return t;
    });
    private final DfpAgentServer server;
    private final Consumer<Sample> onChange;
    private volatile List<HostWeight> weights;
    private Sample last;

    public SidecarAgent(Settings settings, NanoClock clock, MeterRegistry registry, Consumer<Sample> onChange)
            throws Exception {
        this.settings = settings;
        this.onChange = onChange;
        readOnce();
        this.server = new DfpAgentServer("dfp-agent", group.next(), clock, registry, () -> weights);
        try {
            server.configure(new DfpAgentServer.Settings(settings.listen(), settings.password(), 0,
                    settings.intervalSeconds(), true));
        } catch (Exception e) {
            close();
            throw e;
        }
        reader.scheduleWithFixedDelay(this::readOnce, settings.intervalSeconds(), settings.intervalSeconds(),
                TimeUnit.SECONDS);
    }

    /** Reads the inputs and publishes the weight, or no weight when an input fails. */
    void readOnce() {
        Sample s = sample();
        weights = s.error() != null ? null : List.of(new HostWeight(HostWeight.ipv4(settings.real()), settings.port(),
                settings.protocol(), settings.bindId(), s.weight()));
        Sample before = last;
        last = s;
        if (before == null || before.weight() != s.weight() || !java.util.Objects.equals(before.error(), s.error())) {
            onChange.accept(s);
        }
    }

    Sample sample() {
        try {
            double current = settings.current().read();
            double cpu = share(settings.cpuFree());
            double mem = share(settings.memFree());
            int w = settings.formula().weight(current, settings.capacity(), settings.maxWeight(), cpu, mem);
            return new Sample(w, current, cpu, mem, null);
        } catch (IOException | RuntimeException e) {
            return new Sample(-1, Double.NaN, Double.NaN, Double.NaN, e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    private static double share(LoadInput in) throws IOException {
        if (in == null) {
            return 1.0;
        }
        double v = in.read();
        return v > 1.0 ? v / 100.0 : v;
    }

    public InetSocketAddress localAddress() {
        return server == null ? null : server.localAddress();
    }

    public int managers() {
        return server.managers();
    }

    @Override
    public void close() {
        reader.shutdownNow();
        if (server != null) {
            server.close();
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        LOG.debug("dfp-agent stopped");
    }
}
