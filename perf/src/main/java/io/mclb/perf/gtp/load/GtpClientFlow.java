package io.mclb.perf.gtp.load;

import io.mclb.gtp.GtpCause;
import io.mclb.gtp.GtpMessageType;
import io.mclb.gtp.v0.GtpV0Message;
import io.mclb.gtp.v1.GtpV1Message;
import io.mclb.gtp.v2.GtpV2Fteid;
import io.mclb.gtp.v2.GtpV2Message;
import io.mclb.perf.load.ClientFlow;
import io.mclb.perf.load.LoadDriver;
import io.netty.buffer.ByteBuf;

/**
 * One client socket of a {@link GtpLoadGenerator}: sends Create (and, with churn, Delete) requests
 * with a per-socket sequence number and matches responses by sequence.
 *
 * <p>The request counter of {@link ClientFlow} goes on the wire modulo the version's sequence
 * space; the ring is far smaller than that space ({@code next - head <= slots}), so a wire
 * sequence maps back to exactly one counter value.
 */
final class GtpClientFlow extends ClientFlow {
    private static final byte CREATE = 1;
    private static final byte DELETE = 2;

    private final GtpLoadGenerator generator;
    private final int version;
    private final int seqMask;
    private final long[] subscriber;
    private final byte[] kind;
    private final GtpV0Message v0 = new GtpV0Message();
    private final GtpV1Message v1 = new GtpV1Message();
    private final GtpV2Message v2 = new GtpV2Message();
    private final GtpV2Fteid fteid = new GtpV2Fteid();
    // Counters, event loop only.
    long creates;
    long accepted;
    long rejected;
    long lost;
    long deletes;
    long deletesAccepted;
    long deletesLost;
    long deletesSkipped;
    long unmatched;

    GtpClientFlow(GtpLoadGenerator generator, LoadDriver<GtpClientFlow, ?> driver, int version, int slots) {
        super(driver, slots, "GTP");
        this.generator = generator;
        this.version = version;
        this.seqMask = version == 2 ? 0x7FFFFF : 0xFFFF; // v2: MSB marks Commands (gtp.md section 9)
        this.subscriber = new long[slots];
        this.kind = new byte[slots];
    }

    @Override
    protected int requestCapacity() {
        return GtpRequestEncoder.MAX_LENGTH;
    }

    /** One Create for the next IMSI of the range. */
    @Override
    protected void encodeRequest(ByteBuf out, int slot, long nowNanos) {
        long imsiRaw = generator.nextImsiRaw();
        int seq = (int) (next & seqMask);
        long sub;
        switch (version) {
            case 0 -> {
                sub = GtpRequestEncoder.tid(imsiRaw, GtpLoadGenerator.NSAPI, generator.tidLayout());
                int label = generator.nextLocalId() & 0xFFFF;
                GtpRequestEncoder.writeV0Create(out, seq, sub, label, label, generator.ownAddress(), generator.apn());
            }
            case 2 -> {
                sub = imsiRaw;
                GtpRequestEncoder.writeV2Create(out, seq, imsiRaw, GtpLoadGenerator.EBI, generator.nextLocalId(),
                        generator.ownAddress(), generator.apn());
            }
            default -> {
                sub = imsiRaw;
                int teid = generator.nextLocalId();
                GtpRequestEncoder.writeV1Create(out, seq, imsiRaw, GtpLoadGenerator.NSAPI, teid, teid ^ 0x80000000,
                        generator.ownAddress(), generator.apn());
            }
        }
        subscriber[slot] = sub;
        kind[slot] = CREATE;
        creates++;
    }

    /** Churn: deletes the session the GGSN just granted (its TEID-C / v0 flow label). */
    private void sendDelete(int ggsnId, long sub, long nowNanos) {
        if (!roomFor()) {
            deletesSkipped++;
            return;
        }
        int seq = (int) (next & seqMask);
        ByteBuf out = allocate();
        switch (version) {
            case 0 -> GtpRequestEncoder.writeV0Delete(out, seq, ggsnId & 0xFFFF, sub);
            case 2 -> GtpRequestEncoder.writeV2Delete(out, seq, ggsnId, GtpLoadGenerator.EBI);
            default -> GtpRequestEncoder.writeV1Delete(out, seq, ggsnId, GtpLoadGenerator.NSAPI);
        }
        int slot = (int) (next & mask);
        subscriber[slot] = sub;
        kind[slot] = DELETE;
        deletes++;
        dispatch(out, nowNanos);
    }

    @Override
    protected void onLost(int slot) {
        if (kind[slot] == CREATE) {
            lost++;
        } else {
            deletesLost++;
        }
    }

    @Override
    protected void onResponse(ByteBuf in, long now) {
        int type;
        int wireSeq;
        int cause;
        int ggsnId;
        switch (version) {
            case 0 -> {
                if (!v0.wrap(in)) {
                    unmatched++;
                    return;
                }
                type = v0.messageType();
                wireSeq = v0.sequence();
                cause = v0.ies().cause();
                ggsnId = v0.ies().teidControl(true);
            }
            case 2 -> {
                if (!v2.wrap(in)) {
                    unmatched++;
                    return;
                }
                type = v2.messageType();
                wireSeq = v2.sequence();
                cause = v2.cause();
                ggsnId = v2.fteid(1, fteid) ? fteid.teid() : 0;
            }
            default -> {
                if (!v1.wrap(in)) {
                    unmatched++;
                    return;
                }
                type = v1.messageType();
                wireSeq = v1.sequence();
                cause = v1.ies().cause();
                ggsnId = v1.ies().teidControl(false);
            }
        }
        long n = head + ((wireSeq - head) & seqMask);
        int slot = (int) (n & mask);
        if (n >= next || sendNanos[slot] == SETTLED || !typeMatches(kind[slot], type)) {
            unmatched++; // late (already lost), duplicate or foreign
            return;
        }
        long sent = settle(slot);
        boolean ok = version == 2 ? GtpCause.classifyV2(cause) == GtpCause.Action.ACCEPTED
                : GtpCause.classifyV1(cause) == GtpCause.Action.ACCEPTED;
        if (kind[slot] == CREATE) {
            recordLatency(now - sent);
            if (ok) {
                accepted++;
                if (generator.churn()) {
                    sendDelete(ggsnId, subscriber[slot], now);
                }
            } else {
                rejected++;
            }
        } else if (ok) {
            deletesAccepted++;
        }
        advanceHead();
    }

    private boolean typeMatches(byte k, int type) {
        if (version == 2) {
            return type == (k == CREATE ? GtpMessageType.V2_CREATE_SESSION_RESPONSE : GtpMessageType.V2_DELETE_SESSION_RESPONSE);
        }
        return type == (k == CREATE ? GtpMessageType.V1_CREATE_PDP_CONTEXT_RESPONSE : GtpMessageType.V1_DELETE_PDP_CONTEXT_RESPONSE);
    }
}
