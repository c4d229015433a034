package io.mclb.perf.radius.load;

import io.mclb.perf.load.ClientFlow;
import io.mclb.perf.load.LoadDriver;
import io.mclb.radius.codec.RadiusCodes;
import io.netty.buffer.ByteBuf;

/**
 * One client socket (one NAS port, in RADIUS terms) of a {@link RadiusLoadGenerator}: sends
 * requests with the 8-bit Identifier taken from the running request counter and matches responses
 * by it.
 *
 * <p>The ring has 256 slots, the wire Identifier is the slot {@code n & 255}; since
 * {@code next - head <= 256} an Identifier maps back to exactly one request and is never reused
 * while that request may still be answered (RFC 2865 section 3). Each slot keeps the Request
 * Authenticator sent, to verify the Response Authenticator.
 */
final class RadiusClientFlow extends ClientFlow {
    static final int SLOTS = 256;

    private final RadiusLoadGenerator generator;
    private final byte[] requestCode = new byte[SLOTS];
    private final byte[] authenticators = new byte[SLOTS * 16];
    // Counters, event loop only.
    long sent;
    long accepts;
    long rejects;
    long acctResponses;
    long badAuthenticators;
    long lost;
    long unmatched;

    RadiusClientFlow(RadiusLoadGenerator generator, LoadDriver<RadiusClientFlow, ?> driver) {
        super(driver, SLOTS, "RADIUS");
        this.generator = generator;
    }

    @Override
    protected int requestCapacity() {
        return RadiusRequestEncoder.MAX_LENGTH;
    }

    @Override
    protected void encodeRequest(ByteBuf out, int slot, long nowNanos) {
        requestCode[slot] = (byte) generator.encodeNext(out, slot, authenticators, slot * 16);
        sent++;
    }

    @Override
    protected void onLost(int slot) {
        lost++;
    }

    @Override
    protected void onResponse(ByteBuf in, long now) {
        int code = generator.peekResponse(in);
        if (code < 0) {
            unmatched++;
            return;
        }
        int id = in.getUnsignedByte(in.readerIndex() + 1);
        long n = head + ((id - head) & mask);
        int slot = (int) (n & mask);
        if (n >= next || sendNanos[slot] == SETTLED || !answers(requestCode[slot], code)) {
            unmatched++; // late (already lost), duplicate or foreign
            return;
        }
        long sentAt = settle(slot);
        if (!generator.verifyResponse(requestCode[slot], authenticators, slot * 16)) {
            badAuthenticators++;
        } else {
            recordLatency(now - sentAt);
            switch (code) {
                case RadiusCodes.ACCESS_ACCEPT -> accepts++;
                case RadiusCodes.ACCESS_REJECT -> rejects++;
                default -> acctResponses++;
            }
        }
        advanceHead();
    }

    private static boolean answers(int requestCode, int responseCode) {
        return requestCode == RadiusCodes.ACCESS_REQUEST
                ? responseCode == RadiusCodes.ACCESS_ACCEPT || responseCode == RadiusCodes.ACCESS_REJECT
                : responseCode == RadiusCodes.ACCOUNTING_RESPONSE;
    }
}
