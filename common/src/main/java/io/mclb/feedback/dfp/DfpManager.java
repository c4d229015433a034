package io.mclb.feedback.dfp;

import io.mclb.feedback.FeedbackLines.AgentLine;
import io.mclb.feedback.FeedbackLines.ManagerConfig;
import io.mclb.net.Transports;
import io.mclb.time.NanoClock;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * mclb as DFP manager ({@code ip slb dfp}): connects out to each configured agent, runs one
 * {@link AgentSession} per agent, and feeds accepted reports into {@link DfpWeights}, which sets the
 * reals' DFP weights (the predictor reads them at its next pick: a report takes effect when it is
 * read). Everything runs on one event loop of its own, off the data path: sessions, channels and
 * weights need no locks. Public methods may be called from any thread; they hop onto the loop.
 */
public final class DfpManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DfpManager.class);
    private static final long TICK_MS = 100;
    private static final int CONNECT_TIMEOUT_MS = 5000;

    /** One agent as {@code show dfp} prints it. */
    public record AgentStatus(AgentLine config, AgentState state, long reports, long lastReportAgoMs,
                              int failedRetries, String lastError) {
    }

    private final EventLoop loop;
    private final NanoClock clock;
    /** Agents whose password does not verify, logged once per address per minute. */
    private final io.mclb.net.SecurityLog security;
    private final MeterRegistry registry;
    private final DfpWeights weights;
    private final Map<String, AgentSession> sessions = new LinkedHashMap<>();
    private final Map<AgentSession, Channel> channels = new HashMap<>();
    private final Map<AgentSession, DfpMetrics> meters = new HashMap<>();
    /** The last failed attempt's reason per agent, so that an agent that stays down is logged once. */
    private final Map<AgentSession, String> lastFailure = new HashMap<>();
    private final ManagerHandler.Events events = new Events();
    private final AgentSession.Io io = new Io();
    private final ScheduledFuture<?> ticker;
    private volatile DfpPasswords passwords = DfpPasswords.NONE;
    private volatile boolean closed;
    private boolean configured;

    public DfpManager(EventLoop loop, NanoClock clock, MeterRegistry registry, DfpWeights weights) {
        this.loop = loop;
        this.clock = clock;
        this.security = new io.mclb.net.SecurityLog(clock);
        this.registry = registry;
        this.weights = weights;
        this.ticker = loop.scheduleAtFixedRate(this::tick, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
    }

    public DfpWeights weights() {
        return weights;
    }

    /**
     * Applies the {@code ip slb dfp} stanza (null: no manager): agents that are new or whose line
     * changed are (re)started, removed ones stopped (their weights dropped), unchanged ones keep
     * their connection. A changed password opens its roll-over window.
     */
    public void configure(ManagerConfig config, List<DfpWeights.Target> targets) {
        loop.execute(() -> apply(config, targets));
    }

    private void apply(ManagerConfig config, List<DfpWeights.Target> targets) {
        long now = clock.nanoTime();
        weights.retarget(targets);
        // the first configuration has no "previous" password to roll over from
        passwords = config == null ? DfpPasswords.NONE : !configured ? DfpPasswords.of(config.password())
                : passwords.next(config.password(), config.passwordTimeoutSeconds(), now);
        configured = config != null;
        Map<String, AgentLine> wanted = new LinkedHashMap<>();
        if (config != null) {
            config.agents().forEach(a -> wanted.put(a.key(), a));
        }
        for (AgentSession s : new ArrayList<>(sessions.values())) {
            AgentLine w = wanted.get(s.key());
            if (w == null || !same(w, s.config())) {
                stop(s);
            }
        }
        for (AgentLine a : wanted.values()) {
            if (!sessions.containsKey(a.key())) {
                AgentSession s = new AgentSession(a, io);
                sessions.put(a.key(), s);
                meters.put(s, DfpMetrics.remote(registry, a.key(), s, x -> x.state().mib()));
                s.start(now);
            }
        }
    }

    private static boolean same(AgentLine a, AgentLine b) {
        return a.address().equals(b.address()) && a.port() == b.port() && a.timeoutSeconds() == b.timeoutSeconds()
                && a.retryCount() == b.retryCount() && a.retryIntervalSeconds() == b.retryIntervalSeconds();
    }

    private void stop(AgentSession s) {
        s.stop();
        sessions.remove(s.key());
        DfpMetrics m = meters.remove(s);
        if (m != null) {
            m.remove();
        }
    }

    /** The reals DFP can reach changed (a reload rebuilt farms): re-derives every real's weight. */
    public void retarget(List<DfpWeights.Target> targets) {
        loop.execute(() -> weights.retarget(targets));
    }

    private void tick() {
        long now = clock.nanoTime();
        for (AgentSession s : new ArrayList<>(sessions.values())) {
            s.tick(now);
        }
    }

    /** Every agent now, in configuration order; waits for the DFP loop at most a second. */
    public List<AgentStatus> status() {
        try {
            return loop.submit(() -> {
                long now = clock.nanoTime();
                List<AgentStatus> out = new ArrayList<>();
                for (AgentSession s : sessions.values()) {
                    long ago = s.lastReportNs() == 0 ? -1 : (now - s.lastReportNs()) / 1_000_000;
                    out.add(new AgentStatus(s.config(), s.state(), s.reports(), ago, s.attempts(), s.lastError()));
                }
                return out;
            }).get(1, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the DFP loop did not answer: " + e, e);
        }
    }

    public DfpPasswords passwords() {
        return passwords;
    }

    /** Stops every session (their weights go) and the timers. */
    @Override
    public void close() {
        closed = true;
        try {
            loop.submit(() -> {
                ticker.cancel(false);
                new ArrayList<>(sessions.values()).forEach(this::stop);
                weights.retarget(List.of());
            }).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("DFP manager: stopping did not finish: {}", e.toString());
        }
    }

    private final class Io implements AgentSession.Io {
        @Override
        public void connect(AgentSession s) {
            if (closed) {
                return;
            }
            AgentLine a = s.config();
            ChannelFuture f = new Bootstrap().group(loop).channel(Transports.tcpClient())
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MS)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new DfpFrameDecoder(), new ManagerHandler(s, events));
                        }
                    }).connect(a.address(), a.port());
            Channel ch = f.channel();
            channels.put(s, ch);
            f.addListener(done -> {
                if (!done.isSuccess() && channels.remove(s, ch)) {
                    Throwable c = done.cause();
                    s.onClosed(clock.nanoTime(), AgentState.TRYING, "connect failed: "
                            + (c == null ? "cancelled" : c.getMessage()));
                }
            });
        }

        @Override
        public void disconnect(AgentSession s) {
            Channel ch = channels.remove(s);
            if (ch != null) {
                ch.close();
            }
        }

        @Override
        public void restoreStatic(AgentSession s) {
            weights.forget(s.key());
        }

        @Override
        public void transition(AgentSession s, AgentState from, AgentState to, String why) {
            // an agent that stays down would log two lines per retry interval: repeats go to debug
            boolean repeat = to == AgentState.CONNECTING && from != AgentState.NOT_OPEN
                    || from == AgentState.CONNECTING && to != AgentState.OPEN && why.equals(lastFailure.get(s));
            if (from == AgentState.CONNECTING && to != AgentState.OPEN) {
                lastFailure.put(s, why);
            } else if (to == AgentState.OPEN || to == AgentState.NOT_OPEN) {
                lastFailure.remove(s);
            }
            if (repeat) {
                LOG.debug("DFP agent {}: {} -> {} ({})", s.key(), from.label(), to.label(), why);
            } else {
                LOG.info("DFP agent {}: {} -> {} ({})", s.key(), from.label(), to.label(), why);
            }
        }
    }

    private final class Events implements ManagerHandler.Events {
        @Override
        public void connected(AgentSession s, ChannelHandlerContext ctx) {
            if (channels.get(s) == ctx.channel()) {
                s.onConnected(clock.nanoTime());
            }
        }

        @Override
        public void report(AgentSession s, List<HostWeight> hosts) {
            if (channels.get(s) == null) {
                return;
            }
            s.onMessage(clock.nanoTime(), true);
            DfpMetrics m = meters.get(s);
            m.report();
            m.unknownHosts(weights.apply(s.key(), hosts, clock.epochMillis()));
        }

        @Override
        public void alive(AgentSession s) {
            s.onMessage(clock.nanoTime(), false);
        }

        @Override
        public void refused(AgentSession s, DfpRefusal reason) {
            Channel ch = channels.remove(s);
            DfpMetrics m = meters.get(s);
            if (m != null) {
                m.refused(reason);
            }
            if (ch != null) {
                AgentState cause = reason == DfpRefusal.SECURITY ? AgentState.SECURITY_ERROR
                        : reason == DfpRefusal.TRUNCATED ? AgentState.TRYING : AgentState.FAILED;
                s.onClosed(clock.nanoTime(), cause, "refused: " + reason.label());
            }
        }

        @Override
        public void closed(AgentSession s, Channel ch) {
            if (channels.remove(s, ch)) {
                s.onClosed(clock.nanoTime(), AgentState.TRYING, "connection closed by the agent");
            }
        }

        @Override
        public io.mclb.net.SecurityLog securityLog() {
            return security;
        }

        @Override
        public DfpPasswords passwords() {
            return passwords;
        }

        @Override
        public long nowNs() {
            return clock.nanoTime();
        }
    }
}
