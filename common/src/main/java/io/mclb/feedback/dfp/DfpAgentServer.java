package io.mclb.feedback.dfp;

import io.mclb.net.Transports;
import io.mclb.time.NanoClock;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A DFP agent: listens for managers (the manager connects, reference/dfp-kalap.md section 1) and
 * reports the weights of a {@link WeightSource} to each, at the report interval (shortened to
 * three quarters of a manager's keep-alive when that is shorter) and at once on a sudden change
 * ({@link AgentPeer#sudden}). Used by {@code ip dfp agent NAME} (weights of mclb's virtual servers)
 * and by the {@code mclb dfp-agent} sidecar (one real's weight). A source that has no opinion
 * ({@code null}: its input cannot be read) closes every manager connection and refuses new ones,
 * so the managers fall back to their static weights instead of trusting a stale one.
 *
 * <p>Runs on one event loop; {@link #configure} and {@link #close} may be called from any thread.
 */
public final class DfpAgentServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DfpAgentServer.class);
    static final long TICK_MS = 100;

    /** Where the weights come from; asked on the agent's loop every {@link #TICK_MS}, so it must be cheap. */
    @FunctionalInterface
    public interface WeightSource {
        /** The hosts and weights to report now, or null when the source cannot tell (nothing is reported). */
        List<HostWeight> weights();
    }

    /** How the agent is configured: its address, password, interval, whether it serves at all. */
    public record Settings(InetSocketAddress listen, String password, int passwordTimeoutSeconds,
                           int intervalSeconds, boolean inService) {
    }

    private final String name;
    private final EventLoop loop;
    private final NanoClock clock;
    private final io.mclb.net.SecurityLog security;
    private final WeightSource source;
    private final DfpMetrics metrics;
    private final Set<AgentPeer> peers = new LinkedHashSet<>();
    private final ScheduledFuture<?> ticker;
    private Settings settings;
    private Channel server;
    private volatile DfpPasswords passwords = DfpPasswords.NONE;
    private volatile int managers;
    private volatile long reportsSent;
    private boolean silent;

    public DfpAgentServer(String name, EventLoop loop, NanoClock clock, MeterRegistry registry, WeightSource source) {
        this.name = name;
        this.loop = loop;
        this.clock = clock;
        this.security = new io.mclb.net.SecurityLog(clock);
        this.source = source;
        this.metrics = DfpMetrics.local(registry, name, this, s -> s.managers);
        this.ticker = loop.scheduleAtFixedRate(this::tick, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
    }

    public String name() {
        return name;
    }

    /**
     * Applies settings: a changed address rebinds (managers reconnect), out of service closes the
     * listener, a changed password opens its roll-over window. Waits for the bind so that a port in
     * use is reported to the caller.
     */
    public void configure(Settings next) throws Exception {
        io.netty.channel.ChannelFuture bound = loop.submit(() -> apply(next)).get(10, TimeUnit.SECONDS);
        if (bound != null && !bound.awaitUninterruptibly(10, TimeUnit.SECONDS)) {
            throw new java.io.IOException("DFP agent " + name + ": binding " + next.listen() + " did not finish");
        }
        if (bound != null && !bound.isSuccess()) {
            throw new java.io.IOException("DFP agent " + name + ": cannot listen on " + next.listen() + ": "
                    + bound.cause().getMessage(), bound.cause());
        }
        if (bound != null) {
            LOG.info("DFP agent {}: listening on {} (report interval {} s)", name, bound.channel().localAddress(),
                    next.intervalSeconds());
        }
    }

    /** On the loop: the new settings; returns the bind in progress, or null when the listener stays as it is. */
    private io.netty.channel.ChannelFuture apply(Settings next) {
        Settings old = settings;
        settings = next;
        passwords = old == null ? DfpPasswords.of(next.password())
                : passwords.next(next.password(), next.passwordTimeoutSeconds(), clock.nanoTime());
        boolean rebind = old == null || !old.listen().equals(next.listen()) || old.inService() != next.inService();
        if (!rebind) {
            return null;
        }
        unbind();
        if (!next.inService()) {
            return null;
        }
        io.netty.channel.ChannelFuture f = new ServerBootstrap().group(loop, loop).channel(Transports.tcpServer())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        // a source without an opinion closes the newcomer in joined()
                        AgentPeer p = new AgentPeer(DfpAgentServer.this, ch);
                        ch.pipeline().addLast(new DfpFrameDecoder(), p);
                    }
                }).bind(next.listen());
        server = f.channel();
        return f;
    }

    private void unbind() {
        if (server != null) {
            server.close();
            server = null;
        }
        for (AgentPeer p : new ArrayList<>(peers)) {
            p.channel().close();
        }
    }

    /** The bound address (port 0 resolved), or null when not listening. */
    public InetSocketAddress localAddress() {
        try {
            return loop.submit(() -> server == null ? null : (InetSocketAddress) server.localAddress())
                    .get(1, TimeUnit.SECONDS);
        } catch (Exception e) {
            return null;
        }
    }

    /** Preference Information messages sent so far, to all managers. */
    public long reportsSent() {
        return reportsSent;
    }

    /** A report went out (on the loop: the one writer). */
    void sent() {
        reportsSent++;
        metrics.report();
    }

    /** Managers connected now. */
    public int managers() {
        return managers;
    }

    public Settings settings() {
        return settings;
    }

    private void tick() {
        if (peers.isEmpty() && !silent) {
            return;
        }
        List<HostWeight> now = source.weights();
        if (now == null) {
            if (!silent) {
                LOG.warn("DFP agent {}: its weight source cannot tell; managers are disconnected until it can", name);
            }
            silent = true;
            for (AgentPeer p : new ArrayList<>(peers)) {
                p.channel().close();
            }
            return;
        }
        if (silent) {
            LOG.info("DFP agent {}: its weight source answers again; managers may connect", name);
            silent = false;
        }
        long nowNs = clock.nanoTime();
        for (AgentPeer p : peers) {
            p.maybeReport(now, nowNs);
        }
    }

    // called by peers, on the loop
    void joined(AgentPeer p) {
        peers.add(p);
        managers = peers.size();
        List<HostWeight> now = source.weights();
        if (now == null) {
            p.channel().close();
        } else {
            p.report(now, clock.nanoTime());
        }
    }

    void left(AgentPeer p) {
        peers.remove(p);
        managers = peers.size();
    }

    long intervalNs() {
        Settings s = settings;
        return (s == null ? 10 : s.intervalSeconds()) * 1_000_000_000L;
    }

    DfpPasswords passwords() {
        return passwords;
    }

    DfpMetrics metrics() {
        return metrics;
    }

    long nowNs() {
        return clock.nanoTime();
    }

    /** Managers whose password does not verify, logged once per address per minute. */
    io.mclb.net.SecurityLog securityLog() {
        return security;
    }

    @Override
    public void close() {
        try {
            loop.submit(() -> {
                ticker.cancel(false);
                unbind();
            }).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("DFP agent {}: stopping did not finish: {}", name, e.toString());
        }
        metrics.remove();
    }
}
