package io.mclb.radius.lb;

import io.mclb.sticky.StickyChangeListener;
import io.mclb.sticky.StickyKey;
import io.mclb.service.ServiceContext;
import io.mclb.net.SecurityLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What the RADIUS inspectors of every loop share: the running context, the current settings and
 * real secrets (swapped as whole objects on reload), the framed-IP index per NAS, the VSA cache
 * and one background thread for purges and cache sweeps (work that must not run on a data loop).
 */
final class RadiusRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(RadiusRuntime.class);

    volatile ServiceContext ctx;
    volatile RadiusSettings settings = RadiusSettings.EMPTY;
    volatile RealSecrets realSecrets = RealSecrets.EMPTY;
    final FramedIpIndex framedIps = new FramedIpIndex();
    final VsaCache vsas = new VsaCache();
    /** Wrong secrets and unknown NASes, logged once per source per minute (issue 14 item 4). */
    volatile SecurityLog security;
    private ScheduledExecutorService background;

    synchronized void start(ServiceContext c) {
        ctx = c;
        if (security == null) {
            security = new SecurityLog(c.clock());
        }
        RadiusSettings before = settings;
        settings = RadiusSettings.from(c.config());
        settings.vservers.forEach((name, v) -> {
            VserverRadius old = before.vservers.get(name);
            if (v.passThrough() && old != null && !old.passThrough()) {
                LOG.warn("radius: vserver {} is pass-through from now on, but its listeners keep rewriting identifiers:"
                        + " its requests are dropped (radius_pass_through_needs_restart) until its listeners restart (a restart of mclb, or a change of its virtual line)", name);
            }
        });
        realSecrets = RealSecrets.of(c.farms().values());
        if (background == null) {
            background = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "mclb-radius");
                t.setDaemon(true);
                return t;
            });
            background.scheduleAtFixedRate(() -> vsas.sweep(c.clock().nanoTime()), 10, 10, TimeUnit.SECONDS);
        }
    }

    synchronized void stop() {
        if (background != null) {
            background.shutdownNow();
            background = null;
        }
    }

    /**
     * Removes, off the data loop, every framed-IP entry NAS {@code nas} created (its
     * Accounting-On/Off: the NAS restarted, all its sessions are gone).
     */
    void purgeNas(int nas) {
        ScheduledExecutorService b = background;
        if (b == null) {
            return;
        }
        b.execute(() -> {
            long[] entries = framedIps.drain(nas);
            StickyKey key = new StickyKey();
            byte[] ip = new byte[4];
            int n = 0;
            for (long e : entries) {
                int framed = (int) e;
                ip[0] = (byte) (framed >>> 24);
                ip[1] = (byte) (framed >>> 16);
                ip[2] = (byte) (framed >>> 8);
                ip[3] = (byte) framed;
                key.set(RadiusStickyKinds.FRAMED_IP, (int) (e >>> 32), ip, 0, 4);
                if (ctx.stickyTable().remove(key, StickyChangeListener.RemoveReason.PURGED)) {
                    n++;
                }
            }
            LOG.info("radius: Accounting-On/Off from NAS {}: purged {} framed-IP sticky entries",
                    ipText(nas), n);
        });
    }

    static String ipText(int ip) {
        return (ip >>> 24) + "." + ((ip >>> 16) & 0xff) + "." + ((ip >>> 8) & 0xff) + "." + (ip & 0xff);
    }
}
