package io.mclb.gtp.mip;

import io.mclb.gtp.FakeUdpPeer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.IntSupplier;

/**
 * A home agent on loopback: answers every Registration Request with a Registration Reply carrying
 * {@link #code}, the requested lifetime (capped at {@link #maxLifetime}), its own address in the
 * Home Agent field and an Identification whose low 32 bits are the request's (RFC 5944 5.7), the
 * high 32 bits its own clock.
 */
final class FakeHomeAgent extends FakeUdpPeer {
    volatile IntSupplier code = () -> 0;
    volatile int maxLifetime = 1800;

    FakeHomeAgent(String address) throws IOException {
        super(address, "fake-ha");
    }

    static byte[] reply(byte[] request, int code, int lifetime, byte[] haAddress) {
        ByteBuffer b = ByteBuffer.allocate(20);
        b.put((byte) 3).put((byte) code).putShort((short) lifetime);
        b.put(request, 4, 4);             // Home Address
        b.put(haAddress);                 // this home agent
        b.putInt(0x5EED0000);             // high 32 bits: the home agent's time
        b.put(request, 20, 4);            // low 32 bits copied from the request
        return b.array();
    }

    @Override
    protected byte[] answer(byte[] d) {
        if (d.length < 24 || d[0] != 1) {
            return null;
        }
        int lifetime = Math.min(((d[2] & 0xFF) << 8) | (d[3] & 0xFF), maxLifetime);
        return reply(d, code.getAsInt(), lifetime, ownAddress());
    }
}
