package io.mclb.gtp.lb;

import io.mclb.config.BadLine;
import io.mclb.config.ConfigLine;
import io.mclb.config.ProbeConfig;
import io.mclb.farm.RealServer;
import io.mclb.farm.ServerFarm;
import io.mclb.gtp.GtpMessageType;
import io.mclb.gtp.v1.GtpV1Message;
import io.mclb.probe.ProbeCheck;
import io.mclb.probe.ProbeContext;
import io.mclb.probe.ProbeTiming;
import io.mclb.probe.UdpCheck;
import io.mclb.service.ProbeFactory;
import io.mclb.service.ServiceContext;
import io.mclb.sticky.StickyChangeListener;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * {@code ip slb probe NAME gtp-echo}: a GTPv1 Echo Request to each real (its port, or 2123) per
 * interval; the matching Echo Response passes. Defaults interval 60 s, faildetect 3, timeout 10 s.
 * The answer's Recovery also tells a GGSN restart ({@link GsnTable}: the last Recovery per GSN): it is counted in
 * {@code mclb_gtp_ggsn_restarts_total} and, with {@code failaction gtp purge} on the farm, the
 * GGSN's IMSI sticky entries and sessions are removed (its contexts are gone).
 */
final class GtpEchoProbe implements ProbeFactory {
    private static final Logger LOG = LoggerFactory.getLogger(GtpEchoProbe.class);
    static final String TYPE = "gtp-echo";
    private static final ProbeTiming DEFAULTS = new ProbeTiming(60, 3, 10);

    private final GtpModule module;

    GtpEchoProbe(GtpModule module) {
        this.module = module;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public ProbeTiming defaults() {
        return DEFAULTS;
    }

    @Override
    public Parsed parse(ConfigLine header, List<ConfigLine> lines) throws BadLine {
        String name = header.get(3);
        if (header.size() > 5) {
            throw new BadLine("ip slb probe " + name + " gtp-echo: unexpected '"
                    + String.join(" ", header.tokens().subList(5, header.size())) + "'");
        }
        if (!lines.isEmpty()) {
            throw new BadLine("probe " + name + " gtp-echo: unknown line '" + lines.get(0).text()
                    + "': expected 'interval S', 'faildetect N' or 'timeout S'");
        }
        return Parsed.of(TYPE);
    }

    @Override
    public ProbeCheck newCheck(ProbeConfig probe, RealServer real, ProbeContext ctx) {
        return new Check(probe, real, ctx);
    }

    private void restarted(ServiceContext ctx, String probe, RealServer r, int recovery) {
        GtpMetrics.countRestart(ctx.registry(), r.farmName(), r.label());
        ServerFarm farm = ctx.farms().get(r.farmName());
        boolean purge = farm != null && farm.config().record(GtpLines.FailactionPurge.class) != null;
        int sticky = 0;
        int sessions = 0;
        if (purge) {
            long id = r.id();
            sticky = ctx.stickyTable().removeIf((k, v) -> k.kind() == GtpModule.IMSI && v.realId() == id,
                    StickyChangeListener.RemoveReason.PURGED);
            sessions = module.sessions().purge(id);
        }
        LOG.warn("gtp-echo probe {}: real {} farm {} restarted (Recovery now {}){}", probe, r.label(), r.farmName(),
                recovery, purge ? ": purged " + sticky + " sticky entries, " + sessions + " sessions"
                        : " (no 'failaction gtp purge': entries kept)");
    }

    /** One GGSN's echoes, on the probe's loop. */
    private final class Check extends UdpCheck {
        private final ProbeConfig probe;
        private final RealServer real;
        private final ProbeContext ctx;
        private final GtpV1Message v1 = new GtpV1Message();
        private int nextSeq;
        private int sentSeq;

        Check(ProbeConfig probe, RealServer real, ProbeContext ctx) {
            super(ctx, new InetSocketAddress(real.address(), real.port() != 0 ? real.port() : GtpConfigSyntax.GTP_C_PORT));
            this.probe = probe;
            this.real = real;
            GtpMetrics.restarts(ctx.service().registry(), real.farmName(), real.label());
            this.ctx = ctx;
        }

        @Override
        protected ByteBuf request(ByteBufAllocator alloc) {
            sentSeq = nextSeq++ & 0xFFFF;
            return alloc.buffer(12).writeByte(GtpV1Message.FLAGS_SIGNALLING).writeByte(GtpMessageType.V1_ECHO_REQUEST)
                    .writeShort(4).writeInt(0).writeShort(sentSeq).writeShort(0);
        }

        @Override
        protected Verdict judge(ByteBuf answer) {
            if (!v1.wrap(answer) || v1.messageType() != GtpMessageType.V1_ECHO_RESPONSE || !v1.hasSequence()
                    || v1.sequence() != sentSeq) {
                return Verdict.NOT_MINE; // late, foreign or unreadable: the timeout judges this run
            }
            int recovery = v1.ies().recovery();
            // the GSN table keeps the last Recovery by address, across reloads, until the GSN idle timer
            if (module.gsns().seen(GsnTable.Side.GGSN, real.address(), 1, recovery, ctx.service().clock().nanoTime())) {
                restarted(ctx.service(), probe.name(), real, recovery);
            }
            return Verdict.PASS;
        }
    }
}
