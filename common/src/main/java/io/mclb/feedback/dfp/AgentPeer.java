package io.mclb.feedback.dfp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;

import java.util.List;

import static io.mclb.feedback.dfp.DfpWire.*;

/**
 * One manager connected to a {@link DfpAgentServer}, behind a {@link DfpFrameDecoder}. Reads DFP
 * Parameters (the manager's keep-alive: reports then come at least every three quarters of it, as
 * the veithen agent does), answers a BindID Request with the terminating empty table (mclb's agents
 * report bind ID 0 only), ignores Server State (informational, draft) and unknown types. A message
 * that fails the password check closes the connection and is counted. Runs on the agent's loop.
 */
final class AgentPeer extends DfpHandler {
    private final DfpAgentServer server;
    private final Channel channel;
    private long keepAliveNs;
    private long lastSentNs;
    private List<HostWeight> lastSent;

    AgentPeer(DfpAgentServer server, Channel channel) {
        this.server = server;
        this.channel = channel;
    }

    Channel channel() {
        return channel;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        server.joined(this);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        server.left(this);
        ctx.fireChannelInactive();
    }

    @Override
    DfpPasswords passwords() {
        return server.passwords();
    }

    @Override
    long nowNs() {
        return server.nowNs();
    }

    @Override
    io.mclb.net.SecurityLog securityLog() {
        return server.securityLog();
    }

    @Override
    void refused(DfpRefusal reason) {
        server.metrics().refused(reason);
    }

    @Override
    void onMessage(ChannelHandlerContext ctx) {
        switch (msg.type()) {
            case DFP_PARAMETERS -> {
                int at = msg.find(TLV_KEEP_ALIVE);
                if (at >= 0) {
                    keepAliveNs = msg.keepAliveSeconds(at) * 1_000_000_000L;
                }
            }
            case BIND_ID_REQUEST -> {
                ByteBuf out = ctx.alloc().buffer(64);
                writer.bindIdReport(out, server.passwords().signing(server.nowNs()));
                ctx.writeAndFlush(out);
            }
            default -> {
                // Server State is informational: the agent must not change its computation for it
            }
        }
    }

    /** Reports when the period is up or the weights changed suddenly. */
    void maybeReport(List<HostWeight> now, long nowNs) {
        long period = server.intervalNs();
        if (keepAliveNs > 0) {
            period = Math.min(period, Math.max(1_000_000_000L, keepAliveNs * 3 / 4));
        }
        if (nowNs - lastSentNs >= period || sudden(lastSent, now)) {
            report(now, nowNs);
        }
    }

    void report(List<HostWeight> now, long nowNs) {
        if (!channel.isActive()) {
            return;
        }
        ByteBuf out = channel.alloc().buffer(16 + LOAD_TLV_FIXED + LOAD_HOST_LENGTH * now.size() + SECURITY_TLV_LENGTH);
        writer.preferenceInformation(out, now, server.passwords().signing(nowNs));
        channel.writeAndFlush(out);
        lastSent = now;
        lastSentNs = nowNs;
        server.sent();
    }

    /**
     * A change worth an early report (IOS: "an early report if a sudden change occurs in a real
     * server's status"): other hosts, a weight reaching or leaving 0 (a virtual server losing its
     * last real), or a move of more than a quarter of the weight last reported.
     */
    static boolean sudden(List<HostWeight> before, List<HostWeight> now) {
        if (before == null || before.size() != now.size()) {
            return true;
        }
        for (int i = 0; i < now.size(); i++) {
            HostWeight a = before.get(i);
            HostWeight b = now.get(i);
            if (a.address() != b.address() || !a.sameGroup(b) || a.bindId() != b.bindId()) {
                return true;
            }
            if ((a.weight() == 0) != (b.weight() == 0) || Math.abs(a.weight() - b.weight()) * 4 > a.weight()) {
                return true;
            }
        }
        return false;
    }
}
