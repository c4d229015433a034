package io.mclb.radius.lb;

import io.mclb.farm.RealServer;
import io.mclb.select.RealSelector;
import io.mclb.select.Selection;
import io.mclb.sticky.StickyChangeListener;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyRefresh;
import io.mclb.sticky.StickyTable;
import io.mclb.sticky.StickyValue;
import io.mclb.vserver.VirtualServer;

/**
 * Framed-IP sticky entries of one inspector: written when an Access-Accept or an answered
 * Accounting-Start carries Framed-IP-Address (to the answering real), removed on
 * Accounting-Stop, indexed per NAS for the Accounting-On/Off purge ({@link FramedIpIndex}) and
 * their NAS recorded beside them in the sticky table ({@link FramedIpOwners}), so the index
 * survives a restart and reaches the HA standby. Loop-confined (reused keys, values and scratch);
 * the sticky table is shared and thread-safe.
 */
final class FramedIpLearner {
    private final RadiusRuntime rt;
    private final VirtualServer vs;
    private final StickyKey key = new StickyKey();
    private final StickyValue value = new StickyValue();
    private final StickyValue existing = new StickyValue();
    private final byte[] scratch = new byte[4];
    private final StickyKey ownerKey = new StickyKey();
    private final StickyValue ownerValue = new StickyValue();
    private final RealSelector selector;
    private final Selection selection = new Selection();

    FramedIpLearner(RadiusRuntime rt, VirtualServer vs) {
        this.rt = rt;
        this.vs = vs;
        this.selector = vs.newSelector();
    }

    private void framedKey(int group, int framed) {
        scratch[0] = (byte) (framed >>> 24);
        scratch[1] = (byte) (framed >>> 16);
        scratch[2] = (byte) (framed >>> 8);
        scratch[3] = (byte) framed;
        key.set(RadiusStickyKinds.FRAMED_IP, group, scratch, 0, 4);
    }

    /** Extends the live entry in {@link #value} once it lags by the {@link StickyRefresh} slack, as the engine's refresh does. */
    private void refresh(VserverRadius v, int framed, int nasIp, long nowMs) {
        if (StickyRefresh.due(value.expiresEpochSeconds(), v.subscriberSeconds(), nowMs)) {
            long wanted = nowMs / 1000 + v.subscriberSeconds();
            rt.ctx.stickyTable().put(key, value.set(value.realId(), value.createdEpochSeconds(), wanted));
            owned(v.learnGroup(), framed, nasIp);
        } else if (nasIp != 0) {
            ownerKeptUp(v.learnGroup(), framed, nasIp, v.subscriberSeconds(), nowMs,
                    rt.framedIps.ownerExpires(nasIp, v.learnGroup(), framed));
        }
    }

    /** Writes the owner entry of the framed-IP entry just written ({@link #value}): same lifetime. */
    private void owned(int group, int framed, int nasIp) {
        if (nasIp != 0) {
            rt.ctx.stickyTable().put(FramedIpOwners.key(ownerKey, scratch, group, framed),
                    FramedIpOwners.value(ownerValue, nasIp, value));
        }
    }


    /**
     * Rewrites the owner entry of the unchanged framed-IP entry in {@link #value} when it lags it by
     * the slack, names another NAS or is gone. The learner is not the framed-IP entry's only writer:
     * a request keyed by its framed IP (an Interim-Update without Calling-Station-Id) has the engine
     * refresh it, and the owner entry, written with the expiry the learner last saw, then expired an
     * hour or two into a live session: a restart or the standby rebuilt its index without the
     * address, and the NAS's Accounting-On left the session behind. Neither a read nor a write of
     * the table on the Interim path: the index knows the owner entry's expiry from the table's own
     * change events ({@link FramedIpIndex}), {@link FramedIpIndex#NEW} when this NAS does not own it.
     */
    private void ownerKeptUp(int group, int framed, int nasIp, int seconds, long nowMs, long ownerExpires) {
        boolean live = ownerExpires != FramedIpIndex.NEW && ownerExpires * 1000L > nowMs;
        if (!live || value.expiresEpochSeconds() - ownerExpires >= StickyRefresh.slackSeconds(seconds)) {
            owned(group, framed, nasIp);
        }
    }

    void learn(int group, int framed, RealServer real, int nasIp, int seconds) {
        long nowMs = rt.ctx.clock().epochMillis();
        long nowS = nowMs / 1000;
        framedKey(group, framed);
        StickyTable table = rt.ctx.stickyTable();
        // One locked query whatever it finds: a new address (every Accept of a new session) is
        // written; a live entry is kept, and comes back in 'existing', unless it names another real
        // or its expiry is no longer current within the StickyRefresh slack (so Interim-Updates
        // within the slack cost no write, and one past it costs one query, not a read and a write):
        // a sticky write is the dearest step of an accounting request (profile of
        // radius-compare.sh), and every write goes to the HA standby.
        value.set(real.id(), nowS, nowS + seconds);
        existing.set(0, 0, 0);
        boolean same = false;
        if (!table.putUnlessCurrent(key, value, seconds, existing, nowMs)) {
            if (existing.expiresEpochSeconds() == 0) {
                return; // the table is full: no entry, so nothing to index (the request is still answered)
            }
            same = true;
            value.copyFrom(existing.bytes());
        }
        if (nasIp == 0) {
            return;
        }
        long ownerExpires = rt.framedIps.add(nasIp, group, framed);
        if (!same || ownerExpires == FramedIpIndex.NEW) {
            // also when the entry itself was unchanged: the engine may have written it (a framed-IP keyed request)
            owned(group, framed, nasIp);
        } else {
            ownerKeptUp(group, framed, nasIp, seconds, nowMs, ownerExpires);
        }
    }

    void forget(int group, int framed, int nasIp) {
        framedKey(group, framed);
        StickyTable table = rt.ctx.stickyTable();
        table.remove(key, StickyChangeListener.RemoveReason.DELETED);
        table.remove(FramedIpOwners.key(ownerKey, scratch, group, framed), StickyChangeListener.RemoveReason.DELETED);
        if (nasIp != 0) {
            rt.framedIps.remove(nasIp, group, framed);
        }
    }

    /** local-ack: nothing is forwarded, so the framed-IP entry names the real the selection step would pick. */
    void learnLocally(VserverRadius v, int framed, int nasIp, long nowMs) {
        StickyTable table = rt.ctx.stickyTable();
        framedKey(v.learnGroup(), framed);
        if (table.get(key, value, nowMs)) {
            refresh(v, framed, nasIp, nowMs);
            return;
        }
        RealServer r = selector.select(vs.snapshot(), selection.reset().routeKey(framed & 0xFFFF_FFFFL), null,
                rt.ctx.clock().nanoTime(), nowMs);
        if (r != null) {
            r.release(); // chosen, not used: no request goes to it
            learn(v.learnGroup(), framed, r, nasIp, v.subscriberSeconds());
        }
    }
}
