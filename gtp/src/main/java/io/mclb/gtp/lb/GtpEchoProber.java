package io.mclb.gtp.lb;

import io.mclb.farm.RealServer;
import io.mclb.farm.ServerFarm;
import io.mclb.gtp.GtpMessageType;
import io.mclb.gtp.v1.GtpV1Message;
import io.mclb.sticky.StickyChangeListener;
import io.mclb.sticky.StickyKind;
import io.mclb.vserver.ServiceContext;
import io.mclb.vserver.VirtualServer;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The I/O of the {@code gtp-echo} probe of one farm: every {@code interval} a GTPv1 Echo Request
 * to each real (its port, or 2123), from the prober's own socket (one per address family) on one
 * event loop; an answer or {@code timeout} without one is handed to that real's
 * {@link GtpEchoJudge}, whose transitions this class applies: PROBE_FAILED on and off, and on a
 * Recovery change (GGSN restart) the restart counter and, with {@code failaction gtp purge}, the
 * removal of the real's IMSI sticky entries and sessions. All state is confined to {@link #loop}.
 */
final class GtpEchoProber implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GtpEchoProber.class);
    static final int GTP_C_PORT = 2123;

    private final ServiceContext ctx;
    private final GtpModule module;
    private final ServerFarm farm;
    private final GtpProbeConfig probe;
    private final boolean purge;
    private final Map<Long, GtpEchoJudge> judges;
    private final EventLoop loop;
    private final RealServer[] reals;
    private final int[] sentSeq;
    private final GtpV1Message v1 = new GtpV1Message();
    private Channel v4;
    private Channel v6;
    private int nextSeq;
    private ScheduledFuture<?> ticker;

    GtpEchoProber(ServiceContext ctx, GtpModule module, ServerFarm farm, GtpProbeConfig probe, boolean purge,
                  Map<Long, GtpEchoJudge> judges) {
        this.ctx = ctx;
        this.module = module;
        this.farm = farm;
        this.probe = probe;
        this.purge = purge;
        this.judges = judges;
        this.loop = ctx.loops().next();
        this.reals = farm.reals().clone();
        this.sentSeq = new int[reals.length];
        java.util.Arrays.fill(sentSeq, -1);
    }

    void start() {
        for (RealServer r : reals) {
            judges.computeIfAbsent(r.id(), id -> new GtpEchoJudge());
            channelFor(r.address()); // bound here, off the loop: a bind cannot be awaited on its own loop
        }
        ticker = loop.scheduleAtFixedRate(this::tick, 0, probe.intervalSeconds(), TimeUnit.SECONDS);
    }

    /** The socket of {@code a}'s family; created by {@link #start} (off the loop), only read on it. */
    private Channel channelFor(InetAddress a) {
        boolean six = a instanceof Inet6Address;
        Channel c = six ? v6 : v4;
        if (c == null) {
            c = VirtualServer.upstreamTemplate(a).group(loop).handler(new Answers())
                    .bind(new InetSocketAddress(six ? "::" : "0.0.0.0", 0)).syncUninterruptibly().channel();
            if (six) {
                v6 = c;
            } else {
                v4 = c;
            }
        }
        return c;
    }

    private void tick() {
        try {
            for (int i = 0; i < reals.length; i++) {
                RealServer r = reals[i];
                if (sentSeq[i] >= 0) {
                    // the last echo is still unanswered (timeout == interval): it counts as a miss now
                    timeout(i, sentSeq[i]);
                }
                int seq = nextSeq++ & 0xFFFF;
                sentSeq[i] = seq;
                ByteBuf b = channelFor(r.address()).alloc().buffer(12);
                b.writeByte(GtpV1Message.FLAGS_SIGNALLING).writeByte(GtpMessageType.V1_ECHO_REQUEST).writeShort(4)
                        .writeInt(0).writeShort(seq).writeShort(0);
                Channel c = channelFor(r.address());
                c.writeAndFlush(new DatagramPacket(b, target(r)), c.voidPromise());
                int idx = i;
                loop.schedule(() -> timeout(idx, seq), probe.timeoutSeconds(), TimeUnit.SECONDS);
            }
        } catch (Throwable t) {
            LOG.warn("gtp-echo probe {} farm {}: cannot send: {}", probe.name(), farm.name(), t.toString());
        }
    }

    private static InetSocketAddress target(RealServer r) {
        return new InetSocketAddress(r.address(), r.port() != 0 ? r.port() : GTP_C_PORT);
    }

    private void timeout(int i, int seq) {
        if (sentSeq[i] == seq) {
            sentSeq[i] = -1;
            apply(reals[i], judges.get(reals[i].id()).unanswered(probe.faildetect()), -1);
        }
    }

    private void onAnswer(DatagramPacket p) {
        ByteBuf buf = p.content();
        if (!v1.wrap(buf) || v1.messageType() != GtpMessageType.V1_ECHO_RESPONSE || !v1.hasSequence()) {
            return;
        }
        int seq = v1.sequence();
        for (int i = 0; i < reals.length; i++) {
            if (sentSeq[i] == seq && target(reals[i]).equals(p.sender())) {
                sentSeq[i] = -1;
                int recovery = v1.ies().recovery();
                apply(reals[i], judges.get(reals[i].id()).answered(recovery), recovery);
                return;
            }
        }
    }

    private void apply(RealServer r, int result, int recovery) {
        if ((result & GtpEchoJudge.FAILED) != 0) {
            LOG.warn("gtp-echo probe {}: real {} farm {} unanswered {} times: probe failed", probe.name(), r.label(),
                    farm.name(), probe.faildetect());
            r.setProbeFailed(true);
        }
        if ((result & GtpEchoJudge.RECOVERED) != 0) {
            LOG.info("gtp-echo probe {}: real {} farm {} answers again", probe.name(), r.label(), farm.name());
            r.setProbeFailed(false);
        }
        if ((result & GtpEchoJudge.RESTARTED) != 0) {
            GtpMetrics.countRestart(ctx.registry(), farm.name(), r.label());
            int sticky = 0;
            int sessions = 0;
            if (purge) {
                long id = r.id();
                sticky = ctx.stickyTable().removeIf((k, v) -> k.kind() == StickyKind.GTP_IMSI && v.realId() == id,
                        StickyChangeListener.RemoveReason.PURGED);
                sessions = module.sessions().purge(id);
            }
            LOG.warn("gtp-echo probe {}: real {} farm {} restarted (Recovery now {}){}", probe.name(), r.label(),
                    farm.name(), recovery, purge ? ": purged " + sticky + " sticky entries, " + sessions + " sessions"
                            : " (no 'failaction gtp purge': entries kept)");
        }
    }

    @Override
    public void close() {
        if (ticker != null) {
            ticker.cancel(false);
        }
        loop.execute(() -> {
            if (v4 != null) {
                v4.close();
            }
            if (v6 != null) {
                v6.close();
            }
        });
    }

    private final class Answers extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext c, Object msg) {
            try {
                if (msg instanceof DatagramPacket p) {
                    onAnswer(p);
                }
            } catch (Throwable t) {
                LOG.debug("gtp-echo probe {}: bad answer", probe.name(), t);
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }
    }
}
