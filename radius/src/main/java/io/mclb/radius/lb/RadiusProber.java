package io.mclb.radius.lb;

import io.mclb.farm.RealServer;
import io.mclb.farm.ServerFarm;
import io.mclb.radius.codec.RadiusSecret;
import io.mclb.vserver.ServiceContext;
import io.mclb.vserver.VirtualServer;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * RADIUS health probes ({@code ip slb probe NAME radius}, attached with {@code probe NAME} in a
 * farm): one {@link Target} per real, each with its own socket on one of the data loops, sending
 * one probe per interval and judging it ({@link ProbeJudge}) when the answer arrives or the
 * timeout passes. I/O here, judgement in {@link ProbeJudge} and {@link ProbePackets}. Restarted
 * from scratch on every (re)load: a reload is rare and probing is cheap.
 */
final class RadiusProber {
    private static final Logger LOG = LoggerFactory.getLogger(RadiusProber.class);

    private final RadiusRuntime rt;
    private final List<Target> targets = new ArrayList<>();

    RadiusProber(RadiusRuntime rt) {
        this.rt = rt;
    }

    synchronized void start(ServiceContext ctx) {
        stopAll();
        RadiusSettings s = rt.settings;
        for (var e : s.farmProbes.entrySet()) {
            ServerFarm farm = ctx.farms().get(e.getKey());
            ProbeSettings probe = s.probes.get(e.getValue());
            if (farm == null || probe == null) {
                continue;
            }
            for (RealServer r : farm.reals()) {
                RadiusSecret secret = RadiusSettings.realSecret(r.config());
                if (secret == null) {
                    LOG.warn("probe {}: real {} has no 'mclb radius key': not probed", probe.name(), r.label());
                    continue;
                }
                int port = r.port() != 0 ? r.port() : 1812;
                targets.add(new Target(probe, r, secret, new InetSocketAddress(r.address(), port),
                        ctx.loops().next()));
            }
        }
        targets.forEach(Target::open);
    }

    synchronized void stop() {
        stopAll();
    }

    private void stopAll() {
        targets.forEach(Target::close);
        targets.clear();
    }

    /** Probing of one real; every field after construction is confined to {@link #loop}. */
    private static final class Target extends SimpleChannelInboundHandler<DatagramPacket> {
        private final ProbeSettings settings;
        private final RealServer real;
        private final RadiusSecret secret;
        private final InetSocketAddress address;
        private final EventLoop loop;
        private final ProbeJudge judge;
        private final ProbePackets packets = new ProbePackets();
        private Channel channel;
        private ScheduledFuture<?> ticker;
        private ProbePackets.Probe pending;
        private ScheduledFuture<?> timeout;
        private int nextId;
        private volatile boolean closed;

        Target(ProbeSettings settings, RealServer real, RadiusSecret secret, InetSocketAddress address,
               EventLoop loop) {
            this.settings = settings;
            this.real = real;
            this.secret = secret;
            this.address = address;
            this.loop = loop;
            this.judge = new ProbeJudge(settings.faildetect());
        }

        void open() {
            InetAddress any = address.getAddress() instanceof java.net.Inet6Address
                    ? new InetSocketAddress("::", 0).getAddress() : new InetSocketAddress("0.0.0.0", 0).getAddress();
            VirtualServer.upstreamTemplate(address.getAddress()).group(loop).handler(this)
                    .bind(new InetSocketAddress(any, 0)).addListener(f -> {
                        if (!f.isSuccess()) {
                            LOG.warn("probe {}: cannot open a socket for real {}", settings.name(), real.label(),
                                    f.cause());
                            return;
                        }
                        channel = ((io.netty.channel.ChannelFuture) f).channel();
                        if (closed) {
                            channel.close();
                            return;
                        }
                        ticker = loop.scheduleAtFixedRate(this::send, 0, settings.intervalSeconds(), TimeUnit.SECONDS);
                    });
        }

        private void send() {
            if (pending != null) {
                return; // the previous probe is still within its timeout
            }
            try {
                nextId = (nextId + 1) & 0xff;
                ProbePackets.Probe p = packets.build(settings, secret, nextId);
                pending = p;
                channel.writeAndFlush(new DatagramPacket(Unpooled.wrappedBuffer(p.wire()), address));
                timeout = loop.schedule(() -> {
                    if (pending == p) {
                        pending = null;
                        judge(false);
                    }
                }, settings.timeoutSeconds(), TimeUnit.SECONDS);
            } catch (RuntimeException e) {
                LOG.warn("probe {}: cannot send to real {}", settings.name(), real.label(), e);
            }
        }

        @Override
        protected void channelRead0(ChannelHandlerContext c, DatagramPacket msg) {
            ProbePackets.Probe p = pending;
            if (p == null || !msg.sender().equals(address) || !packets.accepts(p, msg.content(), secret)) {
                return; // late, foreign or unverifiable: the timeout judges this probe
            }
            pending = null;
            if (timeout != null) {
                timeout.cancel(false);
            }
            judge(true);
        }

        private void judge(boolean ok) {
            Boolean change = judge.record(ok);
            if (change != null && !closed) {
                real.setProbeFailed(change);
                LOG.info("probe {}: real {} {}", settings.name(), real.label(), change ? "failed" : "recovered");
            }
        }

        void close() {
            closed = true;
            loop.execute(() -> {
                if (ticker != null) {
                    ticker.cancel(false);
                }
                if (timeout != null) {
                    timeout.cancel(false);
                }
                if (channel != null) {
                    channel.close();
                }
                if (judge.failed()) {
                    real.setProbeFailed(false); // a probe removed by reload no longer holds the real down
                }
            });
        }
    }
}
