package io.mclb.perf.gtp.sim;

import io.mclb.gtp.GtpEchoEncoder;
import io.mclb.gtp.GtpMessageType;
import io.mclb.gtp.GtpVersion;
import io.mclb.gtp.v0.GtpV0Message;
import io.mclb.gtp.v1.GtpV1IeIndex;
import io.mclb.gtp.v1.GtpV1Message;
import io.mclb.gtp.v2.GtpV2Fteid;
import io.mclb.gtp.v2.GtpV2Message;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The GGSN/PGW logic of {@link GgsnSimulator}, independent of sockets: one request in, at most one
 * response out. Runs on the simulator's single event loop; counters are atomics written with
 * {@code lazySet} by that thread only and readable anywhere.
 */
final class GgsnEngine {
    private static final int V1_ACCEPTED = 128;
    private static final int V1_CONTEXT_NOT_FOUND = 210;
    private static final int V1_MANDATORY_IE_MISSING = 202;
    private static final int V2_ACCEPTED = 16;
    private static final int V2_CONTEXT_NOT_FOUND = 64;
    private static final int V2_MANDATORY_IE_MISSING = 70;

    private final GtpV0Message v0 = new GtpV0Message();
    private final GtpV1Message v1 = new GtpV1Message();
    private final GtpV2Message v2 = new GtpV2Message();
    private final GtpV2Fteid fteid = new GtpV2Fteid();
    /** The address key of the socket answering the datagram being handled (loop thread). */
    private int owner;
    private final GtpResponseEncoder.Grant grant = new GtpResponseEncoder.Grant();
    private final SessionTable sessionsV0;
    private final SessionTable sessionsV1;
    private final SessionTable sessionsV2;
    private final CauseMix mixV1;
    private final CauseMix mixV2;
    private final Random random;
    private final int poolBase;
    private final int poolSize;
    private int poolNext;
    private int chargingId;

    // Counters: written by the loop thread only.
    final AtomicLongArray received = new AtomicLongArray(3 * 256);
    final AtomicLongArray createCauses = new AtomicLongArray(3 * 256);
    final AtomicLong deletesNotFound = new AtomicLong();
    final AtomicLong malformed = new AtomicLong();
    final AtomicLong unhandled = new AtomicLong();
    final AtomicLong activeSessions = new AtomicLong();
    volatile int recovery;

    GgsnEngine(CauseMix mixV1, CauseMix mixV2, long seed, int recovery, int poolBase, int poolSize, int expectedSessions) {
        this.mixV1 = mixV1;
        this.mixV2 = mixV2;
        this.random = new Random(seed);
        this.recovery = recovery & 0xFF;
        this.poolBase = poolBase;
        this.poolSize = poolSize;
        this.sessionsV0 = new SessionTable(16, expectedSessions);
        this.sessionsV1 = new SessionTable(32, expectedSessions);
        this.sessionsV2 = new SessionTable(32, expectedSessions);
    }

    /** Forgets every session, as a rebooted GGSN does (loop thread). */
    void clearSessions() {
        sessionsV0.clear();
        sessionsV1.clear();
        sessionsV2.clear();
        activeSessions.lazySet(0);
    }

    /**
     * Handles one datagram; returns the response buffer (owned by the caller) or null when nothing is
     * answered (malformed, unknown version, a message type the simulator does not serve).
     *
     * @param ownAddress 4 or 16 octets: the address put into GSN Address / F-TEID IEs
     */
    ByteBuf handle(ByteBuf in, byte[] ownAddress, ByteBufAllocator alloc) {
        grant.ownAddress = ownAddress;
        owner = ownerKey(ownAddress);
        int version = GtpVersion.peek(in);
        switch (version) {
            case GtpVersion.V0:
                return v0.wrap(in) ? handleV0(alloc) : drop();
            case GtpVersion.V1:
                return v1.wrap(in) ? handleV1(alloc) : drop();
            case GtpVersion.V2:
                return v2.wrap(in) ? handleV2(alloc) : drop();
            default:
                return drop();
        }
    }

    private ByteBuf handleV0(ByteBufAllocator alloc) {
        int type = v0.messageType();
        count(received, 0, type);
        int seq = v0.sequence();
        long tid = v0.tid();
        GtpV1IeIndex ies = v0.ies();
        switch (type) {
            case GtpMessageType.V1_ECHO_REQUEST: {
                ByteBuf out = alloc.ioBuffer(GtpEchoEncoder.V0_LENGTH);
                GtpEchoEncoder.writeV0(out, seq, recovery);
                return out;
            }
            case GtpMessageType.V1_CREATE_PDP_CONTEXT_REQUEST: {
                int peerLabel = ies.teidControl(true);
                int cause = ies.hasTeidControl() ? mixV1.pick(random) : V1_MANDATORY_IE_MISSING;
                if (isAcceptedV1(cause)) {
                    int label = sessionsV0.create(tid, peerLabel);
                    fillGrant(label, label, 0);
                    activeSessions.lazySet(sessionCount());
                }
                count(createCauses, 0, cause);
                ByteBuf out = alloc.ioBuffer(GtpResponseEncoder.MAX_LENGTH);
                GtpResponseEncoder.writeV0Create(out, seq, peerLabel, tid, cause, recovery, grant);
                return out;
            }
            case GtpMessageType.V1_DELETE_PDP_CONTEXT_REQUEST: {
                long peer = sessionsV0.deleteBySubscriber(tid);
                activeSessions.lazySet(sessionCount());
                ByteBuf out = alloc.ioBuffer(GtpResponseEncoder.MAX_LENGTH);
                GtpResponseEncoder.writeV0Delete(out, seq, peer == SessionTable.NONE ? 0 : (int) peer, tid,
                        deleteCauseV1(peer));
                return out;
            }
            default:
                unhandled.lazySet(unhandled.get() + 1);
                return null;
        }
    }

    private ByteBuf handleV1(ByteBufAllocator alloc) {
        int type = v1.messageType();
        count(received, 1, type);
        int seq = Math.max(0, v1.sequence()); // S = 0 (no sequence): answer with 0
        GtpV1IeIndex ies = v1.ies();
        switch (type) {
            case GtpMessageType.V1_ECHO_REQUEST: {
                ByteBuf out = alloc.ioBuffer(GtpEchoEncoder.V1_LENGTH);
                GtpEchoEncoder.writeV1(out, seq, recovery);
                return out;
            }
            case GtpMessageType.V1_CREATE_PDP_CONTEXT_REQUEST: {
                int peerTeid = ies.teidControl(false);
                boolean complete = ies.hasImsi() && ies.hasTeidControl() && ies.nsapi() >= 0;
                int cause = complete ? mixV1.pick(random) : V1_MANDATORY_IE_MISSING;
                if (isAcceptedV1(cause)) {
                    // 15-digit IMSIs end in the F filler (high nibble of the last octet): the NSAPI takes its place in the key.
                    long key = (ies.imsiRaw() & ~0xF0L) | ((long) ies.nsapi() << 4);
                    int teid = sessionsV1.create(key, peerTeid, owner);
                    fillGrant(teid, teid ^ 0x80000000, 0);
                    activeSessions.lazySet(sessionCount());
                }
                count(createCauses, 1, cause);
                ByteBuf out = alloc.ioBuffer(GtpResponseEncoder.MAX_LENGTH);
                GtpResponseEncoder.writeV1Create(out, seq, peerTeid, cause, recovery, grant);
                return out;
            }
            case GtpMessageType.V1_UPDATE_PDP_CONTEXT_REQUEST: {
                long peer = sessionsV1.peerOf(v1.teid(), owner);
                ByteBuf out = alloc.ioBuffer(GtpResponseEncoder.MAX_LENGTH);
                GtpResponseEncoder.writeV1Update(out, seq, peer == SessionTable.NONE ? 0 : (int) peer,
                        peer == SessionTable.NONE ? V1_CONTEXT_NOT_FOUND : V1_ACCEPTED);
                return out;
            }
            case GtpMessageType.V1_DELETE_PDP_CONTEXT_REQUEST: {
                long peer = sessionsV1.deleteById(v1.teid(), owner);
                activeSessions.lazySet(sessionCount());
                ByteBuf out = alloc.ioBuffer(GtpResponseEncoder.MAX_LENGTH);
                GtpResponseEncoder.writeV1Delete(out, seq, peer == SessionTable.NONE ? 0 : (int) peer, deleteCauseV1(peer));
                return out;
            }
            default:
                unhandled.lazySet(unhandled.get() + 1);
                return null;
        }
    }

    private ByteBuf handleV2(ByteBufAllocator alloc) {
        int type = v2.messageType();
        count(received, 2, type);
        int seq = v2.sequence();
        switch (type) {
            case GtpMessageType.V2_ECHO_REQUEST: {
                ByteBuf out = alloc.ioBuffer(GtpEchoEncoder.V2_LENGTH);
                GtpEchoEncoder.writeV2(out, seq, recovery);
                return out;
            }
            case GtpMessageType.V2_CREATE_SESSION_REQUEST: {
                int peerTeid = v2.fteid(0, fteid) ? fteid.teid() : 0;
                int ebi = v2.ebi();
                boolean complete = v2.hasImsi() && v2.hasFteid(0) && ebi >= 0;
                int cause = complete ? mixV2.pick(random) : V2_MANDATORY_IE_MISSING;
                if (cause >= 16 && cause <= 63) {
                    long key = (v2.imsiRaw() & ~0xF0L) | ((long) ebi << 4);
                    int teid = sessionsV2.create(key, peerTeid, owner);
                    fillGrant(teid, teid ^ 0x80000000, ebi);
                    activeSessions.lazySet(sessionCount());
                }
                count(createCauses, 2, cause);
                ByteBuf out = alloc.ioBuffer(GtpResponseEncoder.MAX_LENGTH);
                GtpResponseEncoder.writeV2Create(out, seq, peerTeid, cause, recovery, grant);
                return out;
            }
            case GtpMessageType.V2_MODIFY_BEARER_REQUEST: {
                long peer = sessionsV2.peerOf(v2.teid(), owner);
                ByteBuf out = alloc.ioBuffer(GtpResponseEncoder.MAX_LENGTH);
                GtpResponseEncoder.writeV2Modify(out, seq, peer == SessionTable.NONE ? 0 : (int) peer,
                        peer == SessionTable.NONE ? V2_CONTEXT_NOT_FOUND : V2_ACCEPTED);
                return out;
            }
            case GtpMessageType.V2_DELETE_SESSION_REQUEST: {
                long peer = sessionsV2.deleteById(v2.teid(), owner);
                activeSessions.lazySet(sessionCount());
                if (peer == SessionTable.NONE) {
                    deletesNotFound.lazySet(deletesNotFound.get() + 1);
                }
                ByteBuf out = alloc.ioBuffer(GtpResponseEncoder.MAX_LENGTH);
                GtpResponseEncoder.writeV2Delete(out, seq, peer == SessionTable.NONE ? 0 : (int) peer,
                        peer == SessionTable.NONE ? V2_CONTEXT_NOT_FOUND : V2_ACCEPTED);
                return out;
            }
            default:
                unhandled.lazySet(unhandled.get() + 1);
                return null;
        }
    }

    /** A non-zero key of the answering socket's address: sessions live at the GGSN that created them. */
    private static int ownerKey(byte[] address) {
        int h = 1;
        for (byte b : address) {
            h = 31 * h + b;
        }
        return h == 0 ? 1 : h;
    }

    private int deleteCauseV1(long peer) {
        if (peer == SessionTable.NONE) {
            deletesNotFound.lazySet(deletesNotFound.get() + 1);
            return V1_CONTEXT_NOT_FOUND;
        }
        return V1_ACCEPTED;
    }

    private void fillGrant(int controlId, int dataId, int ebi) {
        grant.controlId = controlId;
        grant.dataId = dataId;
        grant.chargingId = ++chargingId;
        grant.ebi = ebi;
        grant.ueIpv4 = poolBase + poolNext;
        poolNext = poolNext + 1 == poolSize ? 0 : poolNext + 1;
    }

    private long sessionCount() {
        return (long) sessionsV0.size() + sessionsV1.size() + sessionsV2.size();
    }

    private static boolean isAcceptedV1(int cause) {
        return cause >= 128 && cause < 192;
    }

    private ByteBuf drop() {
        malformed.lazySet(malformed.get() + 1);
        return null;
    }

    private static void count(AtomicLongArray counters, int version, int index) {
        int i = version * 256 + (index & 0xFF);
        counters.lazySet(i, counters.get(i) + 1);
    }
}
