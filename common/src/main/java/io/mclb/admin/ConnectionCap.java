package io.mclb.admin;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;

import java.util.Iterator;
import java.util.LinkedHashSet;

/**
 * At most {@code max} connections on one listener. Past it, the oldest connection that is not
 * being answered is closed to make room, rather than the new one refused: a scraper or an operator
 * arriving while someone holds every slot open still gets in, and the one that waited longest
 * without finishing a request is the one that goes. One instance per listener, shared by its
 * channels, which all run on the admin plane's single event loop (so the set needs no lock).
 */
@ChannelHandler.Sharable
final class ConnectionCap extends ChannelInboundHandlerAdapter {
    /** Set while a complete request is being answered on the channel. */
    static final AttributeKey<Boolean> ANSWERING = AttributeKey.valueOf("mclb-admin-answering");

    private final int max;
    private final AdminRefusals refusals;
    /** Oldest first. Event-loop confined. */
    private final LinkedHashSet<Channel> open = new LinkedHashSet<>();
    /** {@code open.size()} for readers off the loop (the gauge). */
    private volatile int size;

    ConnectionCap(int max, AdminRefusals refusals) {
        this.max = max;
        this.refusals = refusals;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        Channel ch = ctx.channel();
        open.add(ch);
        if (open.size() > max) {
            evictOne(ch);
        }
        size = open.size();
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        open.remove(ctx.channel());
        size = open.size();
        ctx.fireChannelInactive();
    }

    private void evictOne(Channel newcomer) {
        for (Iterator<Channel> it = open.iterator(); it.hasNext(); ) {
            Channel c = it.next();
            if (c != newcomer && !Boolean.TRUE.equals(c.attr(ANSWERING).get())) {
                it.remove();
                refusals.refuse(AdminRefusals.Reason.CONNECTION_LIMIT, AdminHttpHandler.source(c),
                        "an idle connection, closed for a new one past max-connections " + max);
                c.close();
                return;
            }
        }
    }

    /** Connections open now; any thread. */
    int size() {
        return size;
    }
}
