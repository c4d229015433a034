package io.mclb.probe;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One HTTP/1.1 request per run over a fresh connection (Netty's HTTP client codec); the status
 * decides, and with a regex the body too (the first {@link #MAX_BODY} bytes are searched). Every
 * way a server can disappoint (other status, no match, a response that is not HTTP, a connection
 * closed early) is a failure with its reason. Confined to the probe's loop.
 */
final class HttpCheck extends TcpCheck {
    static final int MAX_BODY = 64 * 1024;

    private final HttpProbe.Settings settings;
    private final Pattern regex;
    private final String host;
    private final String authorization;

    HttpCheck(ProbeContext ctx, InetSocketAddress target, HttpProbe.Settings settings, int timeoutMs) {
        super(ctx, target, timeoutMs, false);
        this.settings = settings;
        this.regex = settings.regex() == null ? null : Pattern.compile(settings.regex());
        String h = target.getAddress().getHostAddress();
        h = target.getAddress() instanceof Inet6Address ? "[" + h + "]" : h;
        this.host = target.getPort() == HttpProbe.DEFAULT_PORT ? h : h + ":" + target.getPort();
        this.authorization = settings.user() == null ? null : "Basic " + Base64.getEncoder().encodeToString(
                (settings.user() + ":" + settings.password()).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String targetLabel() {
        return "http://" + host + settings.url();
    }

    @Override
    protected void connected(Channel ch, ProbeResult result) {
        ch.pipeline().addLast(new HttpClientCodec(), new Response(ch, result));
        ch.writeAndFlush(request()).addListener(w -> {
            if (!w.isSuccess()) {
                finish(ch);
                result.fail("request not sent: " + w.cause().getMessage());
            }
        });
    }

    private FullHttpRequest request() {
        FullHttpRequest r = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.valueOf(settings.method()),
                settings.url());
        r.headers().set(HttpHeaderNames.HOST, host).set(HttpHeaderNames.USER_AGENT, "mclb-probe")
                .set(HttpHeaderNames.ACCEPT, "*/*").set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        if (authorization != null) {
            r.headers().set(HttpHeaderNames.AUTHORIZATION, authorization);
        }
        if (!settings.method().equals("GET") && !settings.method().equals("HEAD")) {
            r.headers().set(HttpHeaderNames.CONTENT_LENGTH, 0);
        }
        for (List<String> h : settings.headers()) {
            r.headers().set(h.get(0), h.get(1));
        }
        return r;
    }

    /** Reads one response: status first, then (with a regex) the body up to {@link #MAX_BODY}. */
    private final class Response extends ChannelInboundHandlerAdapter {
        private final Channel ch;
        private final ProbeResult result;
        private final StringBuilder body = new StringBuilder();
        private boolean statusSeen;
        private boolean done;

        Response(Channel ch, ProbeResult result) {
            this.ch = ch;
            this.result = result;
        }

        @Override
        public void channelRead(ChannelHandlerContext c, Object msg) {
            try {
                if (!done && msg instanceof HttpObject o) {
                    read(o);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        private void read(HttpObject o) {
            if (o.decoderResult().isFailure()) {
                end(false, "not an HTTP response: " + o.decoderResult().cause().getMessage());
                return;
            }
            if (o instanceof HttpResponse r) {
                statusSeen = true;
                int code = r.status().code();
                if (code != settings.status()) {
                    end(false, "expected status " + settings.status() + ", got " + r.status());
                    return;
                }
                if (regex == null) {
                    end(true, "");
                    return;
                }
            }
            if (o instanceof HttpContent content) {
                ByteBuf b = content.content();
                int room = MAX_BODY - body.length();
                if (room > 0) {
                    body.append(b.toString(b.readerIndex(), Math.min(room, b.readableBytes()), StandardCharsets.ISO_8859_1));
                }
                if (o instanceof LastHttpContent) {
                    judgeBody();
                }
            }
        }

        private void judgeBody() {
            if (regex.matcher(body).find()) {
                end(true, "");
            } else {
                end(false, "status " + settings.status() + " but the body does not match regex '" + settings.regex() + "'");
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext c) {
            if (done) {
                return;
            }
            if (statusSeen && regex != null) {
                judgeBody(); // a body delimited by the close
            } else {
                end(false, "connection closed before a response");
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
            end(false, "connection failed: " + cause.getMessage());
        }

        private void end(boolean ok, String reason) {
            if (done) {
                return;
            }
            done = true;
            finish(ch);
            if (ok) {
                result.pass();
            } else {
                result.fail(reason);
            }
        }
    }
}
