package io.mclb.radius.lb;

import io.mclb.service.ConfigSyntax;
import io.mclb.service.ProbeFactory;
import io.mclb.service.ServiceContext;
import io.mclb.service.ServiceInspector;
import io.mclb.service.ServiceModule;
import io.mclb.sticky.StickyKind;
import io.mclb.vserver.VirtualServer;

import java.util.List;

/**
 * The RADIUS module ({@code service radius}): a re-signing RADIUS proxy per virtual server on
 * every event loop ({@link RadiusInspector}), subscriber stickiness, framed-IP learning, local
 * accounting acknowledgement, VSA correlation and the {@code radius} probe type. Route maps are
 * the engine's ({@code predictor route-map}): this module gives it the Framed-IP-Address as the
 * request's key. Found by {@link java.util.ServiceLoader}; one instance per running balancer.
 */
public final class RadiusServiceModule implements ServiceModule {
    private final RadiusConfigSyntax syntax = new RadiusConfigSyntax();
    private final RadiusRuntime runtime = new RadiusRuntime();
    private final RadiusProbe probe = new RadiusProbe();

    @Override
    public ConfigSyntax syntax() {
        return syntax;
    }

    @Override
    public List<ProbeFactory> probeTypes() {
        return List.of(probe);
    }

    @Override
    public List<StickyKind> stickyKinds() {
        return List.of(RadiusStickyKinds.FRAMED_IP, RadiusStickyKinds.CALLING_STATION_ID, RadiusStickyKinds.USERNAME,
                RadiusStickyKinds.FRAMED_IP_NAS);
    }

    @Override
    public ServiceInspector<?> newInspector(VirtualServer vs) {
        return new RadiusInspector(runtime, vs);
    }

    @Override
    public void start(ServiceContext ctx) {
        runtime.start(ctx);
    }

    @Override
    public void stop() {
        runtime.stop();
    }

    /** The per-NAS framed-IP index (tests). */
    FramedIpIndex framedIps() {
        return runtime.framedIps;
    }
}
