package io.mclb.radius.lb;

import io.mclb.radius.codec.RadiusAttributes;
import io.mclb.radius.codec.RadiusPacket;
import io.mclb.sticky.Hashing;
import io.netty.buffer.ByteBuf;

/**
 * VSA correlation for one inspector ({@code radius inject auth|acct vsa cisco}): copies the Cisco
 * VSAs of an Access-Request into the shared {@link VsaCache} (one array per remembered request,
 * only when configured) and finds them again for the subscriber's Accounting-Start. Reads the
 * packet through the inspector's flyweight; loop-confined.
 */
final class VsaCorrelation {
    private final RadiusRuntime rt;
    private final RadiusPacket p;
    private final byte[] scratch = new byte[256];

    VsaCorrelation(RadiusRuntime rt, RadiusPacket p) {
        this.rt = rt;
        this.p = p;
    }

    /** The attributes remembered for the subscriber of the current packet, or null. */
    byte[] forAccountingStart() {
        long sub = subscriberHash();
        return sub == 0 ? null : rt.vsas.get(sub, rt.ctx.clock().nanoTime());
    }


    /** 64-bit hash of Calling-Station-Id, else User-Name; 0 when neither is present. */
    long subscriberHash() {
        int a = p.callingStationId();
        long salt = 1;
        if (a < 0 || p.valueLength(a) <= 0) {
            a = p.userName();
            salt = 2;
        }
        if (a < 0 || p.valueLength(a) <= 0) {
            return 0;
        }
        int len = p.valueLength(a);
        p.buffer().getBytes(RadiusPacket.valueIndex(a), scratch, 0, len);
        long h = Hashing.murmur64(scratch, 0, len, salt);
        return h == 0 ? 1 : h;
    }

    void remember(VserverRadius v) {
        ByteBuf buf = p.buffer();
        int total = 0;
        for (int a = p.findAttribute(RadiusAttributes.VENDOR_SPECIFIC); a >= 0;
             a = p.nextAttribute(RadiusAttributes.VENDOR_SPECIFIC, a + buf.getUnsignedByte(a + 1))) {
            if (buf.getUnsignedByte(a + 1) >= 6 && buf.getUnsignedInt(a + 2) == RadiusAttributes.VENDOR_CISCO) {
                total += buf.getUnsignedByte(a + 1);
            }
        }
        long sub = total == 0 ? 0 : subscriberHash();
        if (sub == 0) {
            return;
        }
        byte[] copy = new byte[total];
        int at = 0;
        for (int a = p.findAttribute(RadiusAttributes.VENDOR_SPECIFIC); a >= 0;
             a = p.nextAttribute(RadiusAttributes.VENDOR_SPECIFIC, a + buf.getUnsignedByte(a + 1))) {
            int len = buf.getUnsignedByte(a + 1);
            if (len >= 6 && buf.getUnsignedInt(a + 2) == RadiusAttributes.VENDOR_CISCO) {
                buf.getBytes(a, copy, at, len);
                at += len;
            }
        }
        long ttlNs = v.requestTimeoutMs() * 1_000_000L * 30; // an Accounting-Start follows the Accept within seconds
        rt.vsas.put(sub, copy, rt.ctx.clock().nanoTime() + ttlNs);
    }
}
