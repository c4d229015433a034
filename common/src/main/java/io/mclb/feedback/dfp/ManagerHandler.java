package io.mclb.feedback.dfp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

import java.util.ArrayList;
import java.util.List;

import static io.mclb.feedback.dfp.DfpWire.*;

/**
 * One manager-side connection to a DFP agent, behind a {@link DfpFrameDecoder}: on connect sends DFP
 * Parameters (keep-alive = the agent's TIMEOUT) and a BindID Request; then reads. A Preference
 * Information is read whole into a list before any weight is applied, so a refused message changes
 * nothing. A BindID Change Notify is answered with a BindID Request; a BindID Report and any other
 * message (unknown types included) only prove the agent alive. Runs on the DFP event loop.
 */
final class ManagerHandler extends DfpHandler {
    /** What the handler reports to its manager. */
    interface Events {
        void connected(AgentSession s, ChannelHandlerContext ctx);

        void report(AgentSession s, List<HostWeight> hosts);

        void alive(AgentSession s);

        void refused(AgentSession s, DfpRefusal reason);

        void closed(AgentSession s, io.netty.channel.Channel ch);

        DfpPasswords passwords();

        long nowNs();

        io.mclb.net.SecurityLog securityLog();
    }

    private final AgentSession session;
    private final Events events;
    private final List<HostWeight> hosts = new ArrayList<>();

    ManagerHandler(AgentSession session, Events events) {
        this.session = session;
        this.events = events;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        events.connected(session, ctx);
        byte[] pw = events.passwords().signing(events.nowNs());
        ByteBuf out = ctx.alloc().buffer(64);
        writer.parameters(out, session.config().timeoutSeconds(), pw);
        writer.empty(out, BIND_ID_REQUEST, pw);
        ctx.writeAndFlush(out);
        ctx.fireChannelActive();
    }

    @Override
    DfpPasswords passwords() {
        return events.passwords();
    }

    @Override
    long nowNs() {
        return events.nowNs();
    }

    @Override
    io.mclb.net.SecurityLog securityLog() {
        return events.securityLog();
    }

    @Override
    void refused(DfpRefusal reason) {
        events.refused(session, reason);
    }

    @Override
    void onMessage(ChannelHandlerContext ctx) {
        switch (msg.type()) {
            case PREFERENCE_INFORMATION -> events.report(session, hosts());
            case BIND_ID_CHANGE_NOTIFY -> {
                events.alive(session);
                ByteBuf out = ctx.alloc().buffer(32);
                writer.empty(out, BIND_ID_REQUEST, events.passwords().signing(events.nowNs()));
                ctx.writeAndFlush(out);
            }
            default -> events.alive(session);
        }
    }

    /** Every host of every Load TLV, in message order (lengths were checked by {@link DfpMessage#wrap}). */
    private List<HostWeight> hosts() {
        hosts.clear();
        for (int at = msg.firstTlv(); at >= 0; at = msg.nextTlv(at)) {
            if (msg.tlvType(at) != TLV_LOAD) {
                continue;
            }
            int port = msg.loadPort(at);
            int protocol = msg.loadProtocol(at);
            for (int i = 0, n = msg.loadHosts(at); i < n; i++) {
                hosts.add(new HostWeight(msg.hostAddress(at, i), port, protocol, msg.hostBindId(at, i),
                        msg.hostWeight(at, i)));
            }
        }
        return hosts;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        events.closed(session, ctx.channel());
        ctx.fireChannelInactive();
    }
}
