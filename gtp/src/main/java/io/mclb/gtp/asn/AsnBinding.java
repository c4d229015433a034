package io.mclb.gtp.asn;

import io.mclb.binding.Binding;
import io.mclb.binding.BindingKind;
import io.mclb.farm.RealServer;

/**
 * An MS whose pre-attachment a gateway answered through mclb: its MSID on that gateway. It holds
 * one of the gateway's connections, so {@code predictor leastconns} balances new MSs by active
 * MSIDs; later messages of the MSID follow it. It ends after the answer to a NetExit or
 * Path_Dereg request, when idle past {@code idle asn msid}, or by {@code failaction asn purge}.
 */
public final class AsnBinding extends Binding {
    public static final BindingKind<AsnBinding> KIND = BindingKind.of("asn-msid");

    AsnBinding(long msid, RealServer real, long nowNs, long idleNs) {
        super(msid, 0, real, 0, nowNs, idleNs);
    }

    public long msid() {
        return owner();
    }
}
