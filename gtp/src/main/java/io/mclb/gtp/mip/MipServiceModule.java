package io.mclb.gtp.mip;

import io.mclb.binding.BindingTable;
import io.mclb.gtp.PerRealBindingGauges;
import io.mclb.service.ConfigSyntax;
import io.mclb.service.ServiceContext;
import io.mclb.service.ServiceInspector;
import io.mclb.service.ServiceModule;
import io.mclb.vserver.VirtualServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The Home Agent Director ({@code service ipmobile}): its lines ({@link MipConfigSyntax}), one
 * {@link MipInspector} per event loop, and the bindings in the runtime's binding table of
 * {@link MipBinding#KIND} (aged by the runtime, kept across reloads). Registered with
 * ServiceLoader beside the GTP module; {@link #start} is idempotent.
 */
public final class MipServiceModule implements ServiceModule {
    static {
        // the HA replicator carries this module's bindings to the standby (issue 13)
        MipBinding.KIND.codec(MipBindingCodec.INSTANCE);
    }

    private final MipConfigSyntax syntax = new MipConfigSyntax();
    private volatile MeterRegistry registry;
    private volatile BindingTable<MipBinding> bindings = new BindingTable<>(MipBinding.KIND);
    private final PerRealBindingGauges gauges = new PerRealBindingGauges(MipMetrics.BINDINGS,
            "Mobile IP bindings mclb saw accepted, per home agent", () -> bindings);

    @Override
    public ConfigSyntax syntax() {
        return syntax;
    }

    /** The bindings (the runtime's table once started): for tests and the admin API. */
    public BindingTable<MipBinding> bindings() {
        return bindings;
    }

    @Override
    public ServiceInspector<?> newInspector(VirtualServer vs) {
        MeterRegistry r = registry != null ? registry : new SimpleMeterRegistry();
        return new MipInspector(vs, bindings, new MipMetrics(r, vs.name()));
    }

    @Override
    public synchronized void start(ServiceContext ctx) {
        registry = ctx.registry();
        bindings = ctx.bindings().table(MipBinding.KIND);
        gauges.register(ctx, MipConfigSyntax.SERVICE);
    }
}
