package io.mclb.radius.lb;

import io.mclb.config.ConfigSyntax;
import io.mclb.transaction.TransactionRelay;
import io.mclb.vserver.ServiceContext;
import io.mclb.vserver.ServiceFactory;
import io.mclb.vserver.VirtualServer;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoop;

/**
 * The RADIUS module ({@code service radius}): a re-signing RADIUS proxy per virtual server on
 * every event loop, subscriber stickiness, framed-IP learning, route-map routing, local
 * accounting acknowledgement, VSA correlation and RADIUS health probes. Found by
 * {@link java.util.ServiceLoader}; one instance per running balancer.
 */
public final class RadiusServiceFactory implements ServiceFactory {
    private final RadiusConfigSyntax syntax = new RadiusConfigSyntax();
    private final RadiusRuntime runtime = new RadiusRuntime();
    private final RadiusProber prober = new RadiusProber(runtime);

    @Override
    public ConfigSyntax syntax() {
        return syntax;
    }

    @Override
    public ChannelHandler newRelay(VirtualServer vs, EventLoop loop) {
        // settings are read at start(), before any listener: a changed timeout reaches new listeners only
        VserverRadius v = runtime.settings.vservers.get(vs.name());
        long timeoutMs = v == null ? VserverRadius.DEFAULT_REQUEST_TIMEOUT_MS : v.requestTimeoutMs();
        return new TransactionRelay(vs, loop, new RadiusInspector(runtime, vs), timeoutMs);
    }

    @Override
    public void start(ServiceContext ctx) {
        runtime.start(ctx);
        prober.start(ctx);
    }

    @Override
    public void stop() {
        prober.stop();
        runtime.stop();
    }
}
