package io.mclb.admin;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.ScheduledFuture;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A whole request (TLS handshake, request line, headers, body) must arrive within the timeout of
 * the connection opening or of the previous answer; else 408 and the connection is closed. This is
 * what keeps a half-sent or idle connection from holding anything: unlike an idle timer, a client
 * that trickles one byte a second still runs out of time. Time spent answering is not counted.
 * One instance per channel; runs on the channel's event loop only. Sits between the HTTP codec and
 * the aggregator, where the end of a request ({@link LastHttpContent}) and of an answer are seen.
 */
final class RequestDeadline extends ChannelDuplexHandler {
    private final long timeoutMs;
    private final AdminRefusals refusals;
    private ScheduledFuture<?> timer;
    private boolean answering;

    RequestDeadline(long timeoutMs, AdminRefusals refusals) {
        this.timeoutMs = timeoutMs;
        this.refusals = refusals;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        arm(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof LastHttpContent) {
            cancel();
            answering = true;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof LastHttpContent && answering) {
            answering = false;
            promise = promise.unvoid();
            promise.addListener(f -> {
                if (ctx.channel().isActive()) {
                    arm(ctx);
                }
            });
        }
        ctx.write(msg, promise);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancel();
        ctx.fireChannelInactive();
    }

    private void arm(ChannelHandlerContext ctx) {
        cancel();
        timer = ctx.executor().schedule(() -> expire(ctx), timeoutMs, TimeUnit.MILLISECONDS);
    }

    private void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    private void expire(ChannelHandlerContext ctx) {
        timer = null;
        if (answering || !ctx.channel().isActive()) {
            return;
        }
        refusals.refuse(AdminRefusals.Reason.TIMEOUT, AdminHttpHandler.source(ctx.channel()), "a request not complete within " + timeoutMs
                + " ms");
        SslHandler ssl = ctx.pipeline().get(SslHandler.class);
        if (ssl != null && !ssl.handshakeFuture().isSuccess()) {
            // nothing can be said to a client that has not finished its handshake
            ctx.close();
            return;
        }
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.REQUEST_TIMEOUT,
                Unpooled.copiedBuffer("request timeout: the request was not complete within " + timeoutMs + " ms\n",
                        StandardCharsets.UTF_8));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, r.content().readableBytes())
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
    }
}
