package io.mclb.admin;

import io.mclb.metrics.MetricNames;
import io.mclb.net.BindFailures;
import io.mclb.net.Transports;
import io.mclb.runtime.MclbRuntime;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The admin plane (DESIGN section 6): {@code GET /metrics} (Prometheus text, or OpenMetrics when
 * the scraper asks for it), {@code GET /healthz}, {@code GET /readyz}, {@code GET /api/v1/<what>}
 * (JSON; {@code ?format=text} gives the IOS-like table that {@code mclb show} prints),
 * {@code POST /api/v1/reload} and the modules' actions, on the TCP address and on the local socket
 * {@code DATA_DIR/admin.sock} (what the CLI uses; see {@link AdminRoutes} for who may do what).
 *
 * <p>Event-driven on Netty's HTTP codec, off the data path: one I/O thread holds every connection
 * (idle or half-sent ones cost a little memory and nothing else: {@link RequestDeadline} answers
 * 408 when a request is not complete in time, {@link ConnectionCap} bounds how many there are,
 * the codec and the aggregator bound their size); complete requests are answered on two view
 * threads, and state changes one at a time on an action thread, so a slow reload never delays a scrape.
 */
public final class AdminServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);
    static final String OPENMETRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    static final int MAX_LINE = 4096;
    static final int MAX_HEADERS = 8192;
    static final int MAX_BODY = 65536;

    /** What {@code POST /api/v1/reload} runs: re-read the file and apply it. */
    public interface Reloader {
        /** @return {@code ok}, {@code errors} (file:line lines) and {@code notes} */
        ReloadResult reload();
    }

    public record ReloadResult(boolean ok, List<String> errors, List<String> notes) {
    }

    /** Extra views a module adds (e.g. {@code failover}, {@code gtp gsn}): {@code GET /api/v1/NAME}. */
    public interface View {
        Table table(Map<String, String> query);

        /**
         * The HTTP status of the answer: 200 unless the view says otherwise (a view of one object,
         * {@code kal-ap/TAG}, answers 503 while it is offline so that an HTTP-checking GSLB can use it).
         */
        default int status(Table table, Map<String, String> query) {
            return 200;
        }
    }

    /**
     * An operator action a module adds ({@code POST /api/v1/NAME}, e.g. {@code failover/active}):
     * state-changing, so over TCP it needs the admin token.
     */
    public interface Action {
        ActionResult run(Map<String, String> query);
    }

    /** The answer to an action: {@code ok} and a message for the operator. */
    public record ActionResult(boolean ok, String message) {
    }

    /** A condition of {@code GET /readyz} (e.g. HA: standby and in sync). */
    public interface Readiness {
        /** @return null while ready, else a one-line reason */
        String notReady();
    }

    private final AdminOptions options;
    private final AdminRoutes routes;
    private final EventLoopGroup io;
    private final ExecutorService views;
    private final ExecutorService actions;
    private final Channel tcp;
    private final LocalSocket local;

    /** TCP only, no TLS, the default limits. */
    public AdminServer(InetSocketAddress address, Supplier<MclbRuntime> runtime, Reloader reloader,
                       Supplier<String> runningConfig) throws IOException {
        this(AdminOptions.tcpOnly(address), runtime, reloader, runningConfig);
    }

    /**
     * Binds the listeners; they accept nothing before {@link #start()}, so that every view is
     * registered by then.
     */
    public AdminServer(AdminOptions options, Supplier<MclbRuntime> runtime, Reloader reloader,
                       Supplier<String> runningConfig) throws IOException {
        this.options = options;
        MclbRuntime rt = runtime.get();
        AdminRefusals refusals = new AdminRefusals(rt.registry(), rt.clock());
        this.routes = new AdminRoutes(runtime, reloader, runningConfig, refusals);
        this.io = Transports.newGroup(1, "mclb-admin-io");
        this.views = Executors.newFixedThreadPool(2, new DefaultThreadFactory("mclb-admin-view", true));
        this.actions = Executors.newSingleThreadExecutor(new DefaultThreadFactory("mclb-admin-action", true));
        try {
            SslContext ssl = options.tls() == null ? null : AdminTls.server(options.tls());
            this.tcp = bindTcp(ssl, refusals, rt.registry());
            this.local = options.localSocket() == null ? null
                    : LocalSocket.bind(io, options.localSocket(), pipeline(true, refusals), refusals);
        } catch (IOException | RuntimeException e) {
            shutdown();
            throw e;
        }
    }

    private Channel bindTcp(SslContext ssl, AdminRefusals refusals, MeterRegistry registry) throws IOException {
        ConnectionCap cap = new ConnectionCap(options.maxConnections(), refusals);
        Gauge.builder(MetricNames.ADMIN_CONNECTIONS, cap, ConnectionCap::size)
                .description("TCP connections to the admin listener now").register(registry);
        ChannelInitializer<Channel> http = pipeline(false, refusals);
        ServerBootstrap b = new ServerBootstrap().group(io).channel(Transports.tcpServer())
                .option(ChannelOption.SO_BACKLOG, 1024).option(ChannelOption.AUTO_READ, false)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (ssl != null) {
                            ch.pipeline().addLast(ssl.newHandler(ch.alloc()));
                        }
                        ch.pipeline().addLast(cap, http);
                    }
                });
        try {
            return b.bind(options.tcp()).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding the admin listener", e);
        } catch (Exception e) {
            InetSocketAddress a = options.tcp();
            throw new IOException(BindFailures.explain("admin listener " + a.getAddress().getHostAddress() + " tcp "
                    + a.getPort(), a.getAddress(), a.getPort(), e), e);
        }
    }

    /** The HTTP part of a connection's pipeline, after TLS and the connection cap. */
    ChannelInitializer<Channel> pipeline(boolean overLocal, AdminRefusals refusals) {
        AdminHttpHandler handler = new AdminHttpHandler(routes, overLocal, views, actions, refusals);
        long timeoutMs = TimeUnit.SECONDS.toMillis(options.timeoutSeconds());
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ChannelPipeline p = ch.pipeline();
                p.addLast(new HttpServerCodec(MAX_LINE, MAX_HEADERS, 8192));
                p.addLast(new RequestDeadline(timeoutMs, refusals));
                p.addLast(new CountingAggregator(MAX_BODY, refusals));
                p.addLast(handler);
            }
        };
    }

    public void addView(String name, View view) {
        routes.views.put(name, view);
    }

    public void addAction(String name, Action action) {
        routes.actions.put(name, action);
    }

    /** One more condition for {@code GET /readyz}. */
    public void addReadiness(Readiness check) {
        routes.readiness.add(check);
    }

    public void start() {
        tcp.config().setAutoRead(true);
        if (local != null) {
            local.start();
        }
        LOG.info("admin listener on {}://{}{}", options.tls() == null ? "http" : "https",
                AdminViews.hostPort(address().getAddress(), address().getPort()),
                local == null ? "" : " and the local socket " + options.localSocket());
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) tcp.localAddress();
    }

    /** The local socket the CLI uses, or null when there is none. */
    public Path localSocket() {
        return local == null ? null : options.localSocket();
    }

    @Override
    public void close() {
        routes.stopping();
        if (tcp != null) {
            tcp.close().syncUninterruptibly();
        }
        if (local != null) {
            local.close();
        }
        shutdown();
    }

    private void shutdown() {
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        views.shutdownNow();
        actions.shutdownNow();
    }

    /** The aggregator that counts the 413 it sends for a body past the limit. */
    private static final class CountingAggregator extends HttpObjectAggregator {
        private final AdminRefusals refusals;

        CountingAggregator(int maxBody, AdminRefusals refusals) {
            super(maxBody);
            this.refusals = refusals;
        }

        @Override
        protected void handleOversizedMessage(io.netty.channel.ChannelHandlerContext ctx,
                                              io.netty.handler.codec.http.HttpMessage oversized) throws Exception {
            refusals.refuse(AdminRefusals.Reason.TOO_LARGE, AdminHttpHandler.source(ctx.channel()),
                    "a request body over " + MAX_BODY + " bytes (413)");
            super.handleOversizedMessage(ctx, oversized);
        }
    }
}
