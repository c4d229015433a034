package io.mclb.radius.lb;

import io.mclb.sticky.StickyChangeListener;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyTable;
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
    private final FramedIpOwners owners = new FramedIpOwners(framedIps);
    /** The sticky table {@link #owners} listens to and was rebuilt from (one per running balancer). */
    private StickyTable indexedTable;
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
        StickyTable table = c.stickyTable();
        if (table != indexedTable) {
            indexTable(table, c);
        }
    }

    /**
     * Listens to {@code table}'s owner entries (this balancer's writes and, on an HA standby, the
     * replicated ones) and indexes those a previous run or the active peer left, on the background
     * thread: an Accounting-On/Off queued behind it purges what was learnt before the restart.
     */
    private void indexTable(StickyTable table, ServiceContext c) {
        if (indexedTable != null) {
            indexedTable.removeListener(owners);
        }
        indexedTable = table;
        table.addListener(owners);
        background.execute(() -> {
            int n = owners.rebuild(table, c.clock().epochMillis());
            if (n > 0) {
                LOG.info("radius: framed-IP index rebuilt from the sticky table: {} sessions", n);
            }
        });
    }

    synchronized void stop() {
        if (indexedTable != null) {
            indexedTable.removeListener(owners);
            indexedTable = null;
        }
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
            StickyTable table = ctx.stickyTable();
            int n = 0;
            for (long e : entries) {
                int framed = (int) e;
                int group = (int) (e >>> 32);
                FramedIpOwners.key(key, ip, group, framed);
                table.remove(key, StickyChangeListener.RemoveReason.PURGED);
                key.set(RadiusStickyKinds.FRAMED_IP, group, ip, 0, 4);
                if (table.remove(key, StickyChangeListener.RemoveReason.PURGED)) {
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
