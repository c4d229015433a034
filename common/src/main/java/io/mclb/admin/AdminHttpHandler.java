package io.mclb.admin;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Turns a complete request into an {@link AdminRequest}, has {@link AdminRoutes} answer it off the
 * event loop (views on the view threads, state changes one at a time on the action thread), and
 * writes the answer. While a request is being answered the channel reads nothing more, so a
 * client cannot queue work by pipelining. Shared by every channel of a listener.
 */
@ChannelHandler.Sharable
final class AdminHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(AdminHttpHandler.class);

    private final AdminRoutes routes;
    private final boolean local;
    private final Executor views;
    private final Executor actions;
    private final AdminRefusals refusals;

    AdminHttpHandler(AdminRoutes routes, boolean local, Executor views, Executor actions, AdminRefusals refusals) {
        this.routes = routes;
        this.local = local;
        this.views = views;
        this.actions = actions;
        this.refusals = refusals;
    }

    static InetAddress source(Channel ch) {
        return ch.remoteAddress() instanceof InetSocketAddress a ? a.getAddress() : null;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        Channel ch = ctx.channel();
        if (req.decoderResult().isFailure()) {
            // a closed channel's partial request (after a 408, or the client gave up) needs no answer
            if (ch.isActive()) {
                malformed(ctx, req.decoderResult().cause());
            }
            return;
        }
        String uri = req.uri();
        int q = uri.indexOf('?');
        AdminRequest r = new AdminRequest(req.method().name(), q < 0 ? uri : uri.substring(0, q),
                q < 0 ? null : uri.substring(q + 1), req.headers().get(HttpHeaderNames.AUTHORIZATION),
                req.headers().get(HttpHeaderNames.ACCEPT), local, source(ch));
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        if (AdminRoutes.immediate(r)) {
            send(ctx, r, routes.handle(r), keepAlive);
            return;
        }
        ch.config().setAutoRead(false);
        ch.attr(ConnectionCap.ANSWERING).set(Boolean.TRUE);
        Executor on = r.method().equals("POST") ? actions : views;
        try {
            on.execute(() -> {
                AdminResponse answer;
                try {
                    answer = routes.handle(r);
                } catch (RuntimeException e) {
                    LOG.warn("admin request {} {} failed", r.method(), uri, e);
                    answer = AdminResponse.text(500, "internal error: " + e + "\n");
                }
                AdminResponse a = answer;
                ctx.executor().execute(() -> {
                    ch.attr(ConnectionCap.ANSWERING).set(null);
                    send(ctx, r, a, keepAlive);
                    ch.config().setAutoRead(true);
                });
            });
        } catch (RejectedExecutionException e) {
            ch.attr(ConnectionCap.ANSWERING).set(null);
            send(ctx, r, AdminResponse.text(503, "mclb is shutting down\n"), false);
        }
    }

    /** A request the codec could not take: too long a line or header block, or not HTTP at all. */
    private void malformed(ChannelHandlerContext ctx, Throwable cause) {
        HttpResponseStatus status;
        AdminRefusals.Reason reason = AdminRefusals.Reason.TOO_LARGE;
        if (cause instanceof TooLongHttpLineException) {
            status = HttpResponseStatus.REQUEST_URI_TOO_LONG;
        } else if (cause instanceof TooLongHttpHeaderException) {
            status = HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
        } else if (cause instanceof TooLongFrameException) {
            status = HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE;
        } else {
            status = HttpResponseStatus.BAD_REQUEST;
            reason = AdminRefusals.Reason.BAD_REQUEST;
        }
        refusals.refuse(reason, source(ctx.channel()), "a request (" + status + ")");
        write(ctx, status, "text/plain; charset=utf-8", Unpooled.copiedBuffer(status + "\n",
                java.nio.charset.StandardCharsets.UTF_8), Map.of(), false);
    }

    private static void send(ChannelHandlerContext ctx, AdminRequest r, AdminResponse a, boolean keepAlive) {
        boolean head = r.method().equals("HEAD");
        write(ctx, HttpResponseStatus.valueOf(a.status()), a.contentType(),
                head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(a.body()), a.headers(), keepAlive, a.body().length);
    }

    private static void write(ChannelHandlerContext ctx, HttpResponseStatus status, String type,
                              io.netty.buffer.ByteBuf body, Map<String, String> headers, boolean keepAlive) {
        write(ctx, status, type, body, headers, keepAlive, body.readableBytes());
    }

    private static void write(ChannelHandlerContext ctx, HttpResponseStatus status, String type,
                              io.netty.buffer.ByteBuf body, Map<String, String> headers, boolean keepAlive,
                              int length) {
        FullHttpResponse resp = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        resp.headers().set(HttpHeaderNames.CONTENT_TYPE, type).setInt(HttpHeaderNames.CONTENT_LENGTH, length);
        headers.forEach(resp.headers()::set);
        if (!keepAlive) {
            resp.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        ChannelFuture f = ctx.writeAndFlush(resp);
        if (!keepAlive) {
            f.addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // a reset connection or a failed TLS handshake: nothing to answer, nothing to keep
        LOG.debug("admin connection {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
