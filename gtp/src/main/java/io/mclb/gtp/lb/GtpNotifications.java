package io.mclb.gtp.lb;

import io.mclb.binding.BindingTable;
import io.mclb.farm.RealServer;
import io.mclb.farm.ServerFarm;
import io.mclb.gtp.GtpCause;
import io.mclb.gtp.v1.GtpV1Message;
import io.mclb.service.Classification;
import io.mclb.vserver.VirtualServer;
import io.mclb.vserver.VserverSnapshot;
import io.netty.buffer.ByteBuf;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * GGSN-to-mclb notifications (IOS SLB's delete and CAC-failure notifications), in mclb's own
 * documented format: a GTPv1-C message (flags 0x32, TEID 0, a sequence number) sent to the
 * virtual address from a real's address, carrying the IMSI IE (type 2) and optionally NSAPI (20):
 * <pre>
 *   0xE0  mclb delete notification        -&gt; answered with 0xE1
 *   0xE2  mclb CAC failure notification   -&gt; answered with 0xE3
 * </pre>
 * (224..227 are unassigned in 29.060 table 1; 240/241, often used as "private", are GTP' Data
 * Record Transfer.) The answer is a v1 message with the same sequence number and a Cause IE:
 * 128 when mclb acted, 192 (non-existent) when there was nothing to act on or the notification
 * was not honoured.
 *
 * <ul>
 * <li>Delete: the session (IMSI, NSAPI) on the sending real ends and the real's session count
 *     drops; without NSAPI every session of the IMSI on that real ends.</li>
 * <li>CAC failure, with {@code gtp notification cac N}: the IMSI's sticky entry of this virtual
 *     server's group is removed (so the next create is balanced afresh, normally to another GGSN)
 *     and its session on the sending real, if any, ends; at most N times per IMSI within
 *     {@code idle gtp imsi} seconds, further ones are counted ({@code result="limit"}) and ignored.
 *     The GGSN is not charged a failure: CAC refusal is load, not a fault. Without the line the
 *     notification is counted ({@code result="disabled"}) and ignored.</li>
 * </ul>
 * A notification from an address that is not a real of the virtual server's farms is dropped
 * ({@code gtp_notification_refused}). Runs on the virtual server's event loop; allocation per
 * notification is fine (a per-session event).
 */
final class GtpNotifications {
    static final int DELETE = 0xE0;
    static final int CAC_FAILURE = 0xE2;

    private final VirtualServer vs;
    private final GtpModule module;
    private final GtpMetrics metrics;

    GtpNotifications(VirtualServer vs, GtpModule module, GtpMetrics metrics) {
        this.vs = vs;
        this.module = module;
        this.metrics = metrics;
    }

    static boolean isNotification(int type) {
        return type == DELETE || type == CAC_FAILURE;
    }

    void handle(GtpV1Message m, InetSocketAddress sender, Classification<GtpTx> req, GtpVserverSettings st) {
        RealServer real = realAt(vs.snapshot(), sender.getAddress());
        int type = m.messageType();
        String kind = type == DELETE ? "delete" : "cac_failure";
        if (real == null) {
            metrics.countNotification(kind, "refused");
            req.drop(GtpInspector.NOTIFICATION_REFUSED);
            return;
        }
        if (!m.ies().hasImsi()) {
            metrics.countNotification(kind, "no_imsi");
            req.local(answer(m, type + 1, GtpCause.V1_MANDATORY_IE_MISSING));
            return;
        }
        long imsiRaw = m.ies().imsiRaw();
        int nsapi = m.ies().nsapi();
        BindingTable<GtpSession> sessions = module.sessions();
        long nowNs = vs.clock().nanoTime();
        String result;
        if (type == DELETE) {
            int n = endSessions(sessions, imsiRaw, nsapi, real);
            result = n > 0 ? "removed" : "unknown";
        } else if (st.cacReassign() == 0) {
            result = "disabled";
        } else if (!module.takeCac(imsiRaw, st.cacReassign(), st.imsiSeconds() * 1_000_000_000L, nowNs)) {
            result = "limit";
        } else {
            GtpModule.unstick(vs.stickyTable(), st.stickyGroup(), imsiRaw);
            endSessions(sessions, imsiRaw, nsapi, real);
            result = "reassigned";
        }
        metrics.countNotification(kind, result);
        boolean acted = result.equals("removed") || result.equals("reassigned");
        req.local(answer(m, type + 1, acted ? GtpCause.V1_REQUEST_ACCEPTED : GtpCause.V1_NON_EXISTENT));
    }

    private static int endSessions(BindingTable<GtpSession> sessions, long imsiRaw, int nsapi, RealServer real) {
        if (nsapi < 0) {
            return sessions.closeOwner(imsiRaw, real.id());
        }
        GtpSession s = sessions.get(imsiRaw, nsapi);
        return s != null && s.real().id() == real.id() && sessions.close(s) ? 1 : 0;
    }

    private static RealServer realAt(VserverSnapshot s, InetAddress a) {
        RealServer r = realAt(s.farm(), a);
        return r == null && s.backup() != null ? realAt(s.backup(), a) : r;
    }

    private static RealServer realAt(ServerFarm f, InetAddress a) {
        for (RealServer r : f.reals()) {
            if (r.address().equals(a)) {
                return r;
            }
        }
        return null;
    }

    private static ByteBuf answer(GtpV1Message m, int type, int cause) {
        ByteBuf out = m.buffer().alloc().buffer(14);
        out.writeByte(GtpV1Message.FLAGS_SIGNALLING).writeByte(type).writeShort(6).writeInt(0)
                .writeShort(m.sequence()).writeByte(0).writeByte(0).writeByte(1).writeByte(cause);
        return out;
    }
}
