package io.mclb.gtp.mip;

import io.mclb.binding.BindingTable;
import io.mclb.farm.RealServer;
import io.mclb.service.Classification;
import io.mclb.service.ResponseVerdict;
import io.mclb.service.ServiceInspector;
import io.mclb.sticky.Hashing;
import io.mclb.time.NanoClock;
import io.mclb.transaction.Transaction;
import io.mclb.vserver.VirtualServer;
import io.mclb.vserver.VserverSnapshot;
import io.netty.buffer.ByteBuf;

import java.net.InetSocketAddress;

/**
 * The Home Agent Director on one event loop ({@code service ipmobile}, UDP 434; gtp/README.md).
 *
 * <p>A Registration Request travels to the home agent unmodified above UDP: the MN-HA
 * authenticator covers the whole fixed part, the Home Agent field included, so the shape passes
 * ids through (the upstream id is the low 32 bits of the Identification, which the reply copies,
 * RFC 5944 section 5.7) and {@link #toReal}/{@link #toClient} change nothing. The engine's client
 * identity is (requester, low 32 bits, high 32 bits as fingerprint): a retransmission, the same
 * Identification again, reaches the same home agent.
 *
 * <p>Routing, in order: a request whose Home Agent field is a farm member's own address goes to
 * that member; a request of a binding mclb saw accepted (NAI extension 131, else Home Address)
 * goes to the binding's home agent; anything else (Home Agent 0.0.0.0, 255.255.255.255, the
 * virtual address: dynamic assignment, RFC 4433 / 5944) is balanced by weighted round robin and
 * keeps a copy, so a 130 (insufficient resources) charges that home agent a failure and is
 * re-sent to another, the mobile node seeing only the second reply. Every other code (131, 133,
 * 134, 136, redirect 143, ...) is forwarded untouched; an accepted registration opens (or, for a
 * renewal, replaces) the binding with the granted lifetime, an accepted deregistration ends it.
 *
 * <p>Confined to its loop: one flyweight and one NAI scratch array reused for every datagram;
 * per request only the small {@link MipTx}. Never throws on datagram content.
 */
final class MipInspector implements ServiceInspector<MipTx> {
    /** The reply copies only the low 32 bits of the Identification. */
    private static final int ID_BITS = 32;
    /** Upstream sockets per loop toward each home agent: an Identification collision takes the next one. */
    private static final int SOCKETS = 4;
    private static final int CODE_INSUFFICIENT_RESOURCES = 130;
    private static final long NAI_SEED = 0x6d69706e6169L;

    private final VirtualServer vs;
    private final BindingTable<MipBinding> bindings;
    private final MipMetrics metrics;
    private final NanoClock clock;
    private final MipMessage msg = new MipMessage();
    private final byte[] nai = new byte[255];
    private final Shape shape;
    private VserverSnapshot lastSnapshot;
    private MipVserverSettings settings;

    MipInspector(VirtualServer vs, BindingTable<MipBinding> bindings, MipMetrics metrics) {
        this.vs = vs;
        this.bindings = bindings;
        this.metrics = metrics;
        this.clock = vs.clock();
        // fixed when the listeners start: a reload that changes it applies to listeners started afterwards
        this.shape = new Shape(ID_BITS, SOCKETS, settings().requestSeconds() * 1000L, true);
    }

    private MipVserverSettings settings() {
        VserverSnapshot s = vs.snapshot();
        if (s != lastSnapshot) {
            settings = MipVserverSettings.of(s);
            lastSnapshot = s;
        }
        return settings;
    }

    @Override
    public Shape shape() {
        return shape;
    }

    @Override
    public void classify(ByteBuf buf, InetSocketAddress client, Classification<MipTx> req) {
        if (!msg.wrap(buf)) {
            req.drop(msg.reason());
            return;
        }
        if (!msg.isRequest()) {
            req.drop(MipDrops.REPLY_TO_VIP);
            return;
        }
        long key;
        int sub;
        if (msg.hasNai()) {
            int n = msg.nai(nai);
            key = Hashing.murmur64(nai, 0, n, NAI_SEED);
            sub = MipBinding.SUB_NAI;
        } else if (msg.homeAddress() != 0) {
            key = msg.homeAddress() & 0xFFFF_FFFFL;
            sub = MipBinding.SUB_HOME_ADDRESS;
        } else {
            key = 0;
            sub = 0;
        }
        long id = msg.idLow();
        long fingerprint = msg.idHigh();
        RealServer named = settings().member(msg.homeAgent());
        MipBinding b = sub == 0 ? null : bindings.get(key, sub);
        if (named != null) {
            req.followUp(id, fingerprint, named.id()).state(new MipTx(key, sub, false));
        } else if (b != null) {
            req.followUp(id, fingerprint, b.real().id()).state(new MipTx(key, sub, false));
        } else {
            req.request(id, fingerprint).keepCopy().startsSession().state(new MipTx(key, sub, true));
        }
    }

    @Override
    public void toReal(ByteBuf buf, Transaction<MipTx> tx) {
        // nothing: the registration is authenticated as the mobile node sent it
    }

    @Override
    public void toClient(ByteBuf buf, Transaction<MipTx> tx) {
        // nothing: the reply carries the request's Identification as the home agent wrote it
    }

    @Override
    public long responseId(ByteBuf buf) {
        return MipMessage.replyId(buf);
    }

    @Override
    public ResponseVerdict onResponse(ByteBuf buf, Transaction<MipTx> tx) {
        if (!msg.wrap(buf) || msg.isRequest()) {
            return tx.drop(MipDrops.MALFORMED_REPLY);
        }
        int code = msg.code();
        RealServer real = tx.real();
        metrics.countReply(real.id(), real.label(), code);
        if (tx.answered()) {
            return ResponseVerdict.FORWARD; // the home agent replayed its reply to a retransmission
        }
        MipTx t = tx.state();
        if (code == CODE_INSUFFICIENT_RESOURCES) {
            return t.reassignable() ? ResponseVerdict.REASSIGN : ResponseVerdict.FORWARD;
        }
        if ((code == 0 || code == 1) && t.sub() != 0) {
            int granted = msg.lifetime();
            if (granted == 0) {
                bindings.close(bindings.get(t.key(), t.sub()));
                return ResponseVerdict.FORWARD;
            }
            bindings.open(new MipBinding(t.key(), t.sub(), real, granted, clock.nanoTime()));
            return ResponseVerdict.FORWARD_SESSION;
        }
        return ResponseVerdict.FORWARD;
    }
}
