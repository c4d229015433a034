package io.mclb.gtp.asn;

import io.mclb.binding.BindingTable;
import io.mclb.gtp.lb.GtpModule;
import io.mclb.select.StickyMode;
import io.mclb.service.Classification;
import io.mclb.service.ResponseVerdict;
import io.mclb.service.ServiceInspector;
import io.mclb.time.NanoClock;
import io.mclb.transaction.Transaction;
import io.mclb.vserver.VirtualServer;
import io.mclb.vserver.VserverSnapshot;
import io.netty.buffer.ByteBuf;

import java.net.InetSocketAddress;

/**
 * The ASN gateway service on one event loop ({@code service asn}, UDP 2231, WiMAX R6;
 * gtp/README.md).
 *
 * <p>Every base-station message carries the MS's MSID in its header, which is the subscriber key.
 * With {@code sticky asn msid}, every request is sticky by MSID: the first one (an
 * MS_PreAttachment_Req, in either NWG numbering) for an MSID without an entry is balanced by the
 * farm's predictor and writes {@code MSID -> gateway}; everything later with that MSID
 * (pre-attachment Ack, attachment, path registration, key change, relocation, net exit) finds the
 * entry and goes to the same gateway, and each use extends it. Without sticky, the binding opened
 * by the gateway's answer to the pre-attachment routes the MSID's later messages.
 *
 * <p>Transaction IDs are rewritten per upstream path and restored (15 bits; the top bit is kept).
 * The engine's retransmission identity is (base station, transaction ID, MSID): an Ack (OP ID 3)
 * or an Indication (OP ID 4) expects no answer and is sent one-way, so an Ack continues the
 * exchange it acknowledges on the same path with the same upstream ID, as the gateway expects.
 * Answers go back to the base station that sent the request, from the virtual address. The answer
 * to a NetExit or Path_Dereg request ends the MSID's binding.
 *
 * <p>Confined to its loop; per request only the small {@link AsnTx}. Never throws on datagram content.
 */
final class AsnInspector implements ServiceInspector<AsnTx> {
    /** 15 bits of the transaction ID are rewritten; the top bit travels unchanged. */
    private static final int ID_BITS = 15;

    private final VirtualServer vs;
    private final BindingTable<AsnBinding> bindings;
    private final NanoClock clock;
    private final AsnHeader msg = new AsnHeader();
    private final byte[] msidBytes = new byte[6];
    private final Shape shape;
    private VserverSnapshot lastSnapshot;
    private AsnVserverSettings settings;

    AsnInspector(VirtualServer vs, BindingTable<AsnBinding> bindings) {
        this.vs = vs;
        this.bindings = bindings;
        this.clock = vs.clock();
        // fixed when the listeners start: a reload that changes it applies to listeners started afterwards
        this.shape = new Shape(ID_BITS, 1, settings().requestSeconds() * 1000L);
    }

    private AsnVserverSettings settings() {
        VserverSnapshot s = vs.snapshot();
        if (s != lastSnapshot) {
            settings = AsnVserverSettings.of(s.config());
            lastSnapshot = s;
        }
        return settings;
    }

    @Override
    public Shape shape() {
        return shape;
    }

    @Override
    public void classify(ByteBuf buf, InetSocketAddress client, Classification<AsnTx> req) {
        if (!msg.wrap(buf)) {
            req.drop(msg.reason());
            return;
        }
        int op = msg.opId();
        if (op == AsnHeader.OP_RESPONSE) {
            req.drop(AsnDrops.RESPONSE_TO_VIP);
            return;
        }
        if (op < AsnHeader.OP_REQUEST || op > AsnHeader.OP_INDICATION) {
            req.drop(AsnDrops.INVALID_OP_ID);
            return;
        }
        int function = msg.functionType();
        int type = msg.messageType();
        long msid = msg.msid();
        int tid = msg.transactionId() & AsnHeader.TID_MASK;
        AsnVserverSettings st = settings();
        AsnBinding b = bindings.get(msid, 0);
        if (b != null) {
            b.touch(clock.nanoTime());
        }
        if (st.sticky()) {
            req.request(tid, msid);
            for (int i = 5; i >= 0; i--) {
                msidBytes[i] = (byte) (msid >>> (8 * (5 - i)));
            }
            req.stickyKey().set(GtpModule.ASN_MSID, st.stickyGroup(), msidBytes, 0, 6);
            req.sticky(st.msidSeconds(), StickyMode.ON_ASSIGN);
        } else if (b != null) {
            req.followUp(tid, msid, b.real().id());
        } else {
            req.request(tid, msid);
        }
        if (op == AsnHeader.OP_ACK || op == AsnHeader.OP_INDICATION) {
            req.oneWay();
            return;
        }
        boolean pre = AsnMessages.isPreAttachmentRequest(function, op, type);
        boolean ends = AsnMessages.endsBinding(function, op, type);
        if (pre || ends) {
            req.state(new AsnTx(msid, pre, ends));
        }
        if (pre) {
            req.startsSession(); // an MS entering the network: synguard counts it
        }
    }

    @Override
    public void toReal(ByteBuf buf, Transaction<AsnTx> tx) {
        AsnHeader.writeTransactionId(buf, (int) tx.upstreamId());
    }

    @Override
    public void toClient(ByteBuf buf, Transaction<AsnTx> tx) {
        AsnHeader.writeTransactionId(buf, (int) tx.originalId());
    }

    @Override
    public long responseId(ByteBuf buf) {
        return AsnHeader.responseId(buf);
    }

    @Override
    public ResponseVerdict onResponse(ByteBuf buf, Transaction<AsnTx> tx) {
        if (!msg.wrap(buf)) {
            return tx.drop(msg.reason()); // never half-forwarded; the request times out
        }
        AsnTx t = tx.state();
        if (tx.answered() || t == null) {
            return ResponseVerdict.FORWARD;
        }
        if (t.endsBinding()) {
            bindings.close(bindings.get(t.msid(), 0));
            return ResponseVerdict.FORWARD;
        }
        // a pre-attachment answered: the MSID is active on this gateway (a re-entry replaces its binding)
        long idleNs = settings().msidSeconds() * 1_000_000_000L;
        bindings.open(new AsnBinding(t.msid(), tx.real(), clock.nanoTime(), idleNs));
        return ResponseVerdict.FORWARD_SESSION;
    }
}
