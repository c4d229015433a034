package io.mclb.gtp.mip;

import io.mclb.binding.Binding;
import io.mclb.binding.BindingKind;
import io.mclb.farm.RealServer;

/**
 * A mobility binding mclb saw a home agent accept: keyed by the mobile node's NAI (RFC 2794
 * extension 131, as a 64-bit hash) or, without one, its Home Address; on the home agent that
 * accepted it, for the lifetime that agent granted. Renewals and the deregistration of the key go
 * to that home agent while it lives, so a binding never moves. It holds one of the home agent's
 * connections (what {@code mclb_sessions_active} counts); it ends on an accepted deregistration,
 * a renewal accepted elsewhere (replaced), its lifetime, or a purge.
 */
public final class MipBinding extends Binding {
    public static final BindingKind<MipBinding> KIND = BindingKind.of("mip-binding");
    /** {@link #sub()} of a binding keyed by NAI hash; {@link #SUB_HOME_ADDRESS} by Home Address. */
    public static final int SUB_NAI = 1;
    public static final int SUB_HOME_ADDRESS = 2;

    private final int grantedSeconds;

    MipBinding(long key, int sub, RealServer real, int grantedSeconds, long nowNs) {
        super(key, sub, real, 0, nowNs, lifetimeNs(grantedSeconds));
        this.grantedSeconds = grantedSeconds;
    }

    /** The granted lifetime in ns; 0xFFFF (infinite, RFC 5944) lasts until a deregistration or purge. */
    static long lifetimeNs(int seconds) {
        return seconds == MipMessage.LIFETIME_INFINITE ? Long.MAX_VALUE / 4 : seconds * 1_000_000_000L;
    }

    public int grantedSeconds() {
        return grantedSeconds;
    }
}
