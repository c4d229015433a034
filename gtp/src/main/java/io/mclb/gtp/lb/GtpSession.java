package io.mclb.gtp.lb;

import io.mclb.binding.Binding;
import io.mclb.binding.BindingKind;
import io.mclb.farm.RealServer;

/**
 * A GTP session mclb saw established: one per (IMSI, NSAPI or EBI), on the GGSN that accepted the
 * create, indexed by the GGSN's control TEID (the binding's alias) so that later requests addressed
 * to that TEID follow it. It holds one of the GGSN's connections, which {@code predictor leastconns}
 * balances on; the sessions live in the runtime's {@link io.mclb.binding.BindingTable} of
 * {@link #KIND}, which ends them on delete, idle expiry or a GGSN restart purge.
 */
public final class GtpSession extends Binding implements GtpTx {
    public static final BindingKind<GtpSession> KIND = BindingKind.of("gtp-session");

    private final byte[] ggsnAddress;

    /** @param teid the GGSN's control TEID, 0 if none was learnt */
    GtpSession(long imsiRaw, int nsapi, RealServer real, int teid, byte[] ggsnAddress, long nowNs, long idleNs) {
        super(imsiRaw, nsapi, real, teid & 0xFFFF_FFFFL, nowNs, idleNs);
        this.ggsnAddress = ggsnAddress;
    }

    public long imsiRaw() {
        return owner();
    }

    public int nsapi() {
        return sub();
    }

    public int teid() {
        return (int) alias();
    }

    /** The signalling address the GGSN advertised in its answer (4 or 16 octets), or null. */
    public byte[] ggsnAddress() {
        return ggsnAddress;
    }
}
