package io.mclb.gtp;

import io.mclb.gtp.v0.GtpV0Message;
import io.mclb.gtp.v0.TidLayout;
import io.mclb.gtp.v1.GtpV1IeCursor;
import io.mclb.gtp.v1.GtpV1IeIndex;
import io.mclb.gtp.v1.GtpV1Message;
import io.mclb.gtp.v2.GtpV2Fteid;
import io.mclb.gtp.v2.GtpV2IeCursor;
import io.mclb.gtp.v2.GtpV2Message;

/**
 * Calls every accessor and in-place patch of a wrapped GTP flyweight (what the relay reads and
 * writes), so a fuzz test reaches every read a forwarded message can cause. The patches write
 * back the value they read: the message is unchanged afterwards. One instance per test (reused
 * cursors, like an event loop's).
 */
public final class GtpAccessors {
    private final GtpV1IeCursor c1 = new GtpV1IeCursor();
    private final GtpV2IeCursor c2 = new GtpV2IeCursor();
    private final GtpV2Fteid fteid = new GtpV2Fteid();
    private final byte[] addr = new byte[16];
    /** Keeps the JIT from discarding the reads. */
    public long sink;

    private void index(GtpV1IeIndex ies, boolean isV0) {
        sink += ies.cause() + ies.imsi() + ies.imsiRaw() + ies.recovery() + ies.teidControl(isV0)
            + ies.teidDataI(isV0) + ies.nsapi() + ies.apnOffset() + ies.apnLength()
            + ies.endUserAddressOffset() + ies.ieCount() + (ies.apnEquals(GtpTestMessages.APN_INTERNET) ? 1 : 0);
        for (int i = 0; i < 3; i++) {
            sink += ies.gsnAddressIpv4(i) + ies.gsnAddress(i, addr) + ies.gsnAddressLength(i);
        }
        if (ies.hasApn()) {
            sink += Apn.toDotted(ies.buffer(), ies.apnOffset(), ies.apnLength()).length();
        }
    }

    public void v0(GtpV0Message v0) {
        sink += v0.version() + v0.protocolType() + v0.messageType() + v0.length() + v0.sequence()
            + v0.flowLabel() + v0.tid() + v0.sndcpNpduNumber() + v0.trailingBytes() + v0.messageLength()
            + v0.type().code();
        for (TidLayout l : TidLayout.values()) {
            sink += v0.tidImsi(l) + v0.tidNsapi(l) + v0.tidImsiRaw(l);
        }
        index(v0.ies(), true);
        GtpV1IeCursor c = v0.ieCursor(c1);
        while (c.next()) {
            sink += c.type() + c.valueLength() + c.ieOffset();
        }
        v0.setSequence(v0.sequence());
        v0.setFlowLabel(v0.flowLabel());
        v0.setTid(v0.tid());
    }

    public void v1(GtpV1Message v1) {
        sink += v1.version() + v1.protocolType() + v1.messageType() + v1.length() + v1.sequence()
            + v1.teid() + v1.iesOffset() + v1.trailingBytes() + v1.messageLength() + v1.type().code();
        index(v1.ies(), false);
        GtpV1IeCursor c = v1.ieCursor(c1);
        while (c.next()) {
            sink += c.type() + c.valueLength() + c.ieOffset();
        }
        v1.setSequence(Math.max(0, v1.sequence()));
        v1.setTeid(v1.teid());
    }

    public void v2(GtpV2Message v2) {
        sink += v2.version() + v2.messageType() + v2.length() + v2.sequence() + v2.teid()
            + v2.messagePriority() + v2.piggybackOffset() + v2.imsi() + v2.imsiRaw() + v2.cause()
            + v2.causeFlags() + v2.recovery() + v2.ebi() + v2.ratType() + v2.apnOffset() + v2.trailingBytes()
            + v2.bearerContextOffset() + v2.ieCount() + v2.type().code() + (v2.isCommandSequence() ? 1 : 0);
        for (int i = 0; i < 3; i++) {
            if (v2.fteid(i, fteid)) {
                sink += fteid.interfaceType() + fteid.teid() + fteid.ipv4() + fteid.ipv4Offset()
                    + fteid.ipv6Offset() + (fteid.ipv6(addr) ? 1 : 0);
            }
        }
        GtpV2IeCursor c = v2.ieCursor(c2);
        while (c.next()) {
            sink += c.type() + c.instance() + c.valueLength() + c.ieOffset();
        }
        v2.setSequence(v2.sequence());
        v2.setTeid(v2.teid());
    }
}
