package io.mclb.farm;

import io.mclb.sticky.Hashing;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;

/**
 * A real's stable 64-bit identity: a hash of (farm name, address, port). Sticky entries store it
 * instead of names, so they find their real again after a restart or a reload.
 */
public final class RealId {
    private RealId() {
    }

    public static long of(String farm, InetAddress address, int port) {
        byte[] f = farm.getBytes(StandardCharsets.UTF_8);
        byte[] a = address.getAddress();
        byte[] all = new byte[f.length + 1 + a.length + 2];
        System.arraycopy(f, 0, all, 0, f.length);
        all[f.length] = 0;
        System.arraycopy(a, 0, all, f.length + 1, a.length);
        all[all.length - 2] = (byte) (port >>> 8);
        all[all.length - 1] = (byte) port;
        long h = Hashing.murmur64(all, 0, all.length, 0x6d636c62L);
        return h == 0 ? 1 : h; // 0 is never a real
    }
}
