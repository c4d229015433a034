package io.mclb.gtp.asn;

import io.mclb.binding.BindingTable;
import io.mclb.farm.RealServer;
import io.mclb.farm.RealState;
import io.mclb.farm.ServerFarm;
import io.mclb.gtp.PerRealBindingGauges;
import io.mclb.gtp.lb.GtpModule;
import io.mclb.service.ConfigSyntax;
import io.mclb.service.ServiceContext;
import io.mclb.service.ServiceInspector;
import io.mclb.service.ServiceModule;
import io.mclb.sticky.StickyChangeListener;
import io.mclb.vserver.VirtualServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The ASN gateway service ({@code service asn}): its lines ({@link AsnConfigSyntax}), one
 * {@link AsnInspector} per event loop, the MSID bindings in the runtime's binding table of
 * {@link AsnBinding#KIND}, and {@code failaction asn purge}: when a gateway of a farm with that
 * line fails, its {@code asn-msid} sticky entries (which persist and replicate like every other
 * kind) and its bindings are removed, off the event loops. {@link #start} is idempotent.
 */
public final class AsnServiceModule implements ServiceModule {
    static {
        // the HA replicator carries this module's bindings to the standby (issue 13)
        AsnBinding.KIND.codec(AsnBindingCodec.INSTANCE);
    }

    private static final Logger LOG = LoggerFactory.getLogger(AsnServiceModule.class);

    private final AsnConfigSyntax syntax = new AsnConfigSyntax();
    private volatile BindingTable<AsnBinding> bindings = new BindingTable<>(AsnBinding.KIND);
    private volatile ServiceContext ctx;
    private final PerRealBindingGauges gauges = new PerRealBindingGauges("mclb.asn.msids",
            "MSIDs active per ASN gateway (bindings opened by a pre-attachment answer)", () -> bindings);
    private ExecutorService purger;

    @Override
    public ConfigSyntax syntax() {
        return syntax;
    }

    /** The MSID bindings (the runtime's table once started): for tests and the admin API. */
    public BindingTable<AsnBinding> bindings() {
        return bindings;
    }

    @Override
    public ServiceInspector<?> newInspector(VirtualServer vs) {
        return new AsnInspector(vs, bindings);
    }

    @Override
    public synchronized void start(ServiceContext c) {
        ctx = c;
        bindings = c.bindings().table(AsnBinding.KIND);
        gauges.register(c, AsnConfigSyntax.SERVICE);
        if (purger == null) {
            purger = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "mclb-asn-purge");
                t.setDaemon(true);
                return t;
            });
        }
    }

    @Override
    public void realTransition(RealServer real, RealState from, RealState to) {
        ServiceContext c = ctx;
        ExecutorService p = purger;
        if (to != RealState.FAILED || c == null || p == null) {
            return;
        }
        ServerFarm farm = c.farms().get(real.farmName());
        if (farm == null || farm.config().record(AsnLines.FailactionPurge.class) == null) {
            return;
        }
        long id = real.id();
        p.execute(() -> {
            int sticky = c.stickyTable().removeIf((k, v) -> k.kind() == GtpModule.ASN_MSID && v.realId() == id,
                    StickyChangeListener.RemoveReason.PURGED);
            int closed = bindings.purge(id);
            LOG.info("failaction asn purge: gateway {} in farm {} failed: removed {} MSID sticky entries, {} bindings",
                    real.label(), real.farmName(), sticky, closed);
        });
    }

    @Override
    public synchronized void stop() {
        if (purger != null) {
            purger.shutdown();
            purger = null;
        }
    }
}
