package io.mclb.radius.lb;

import io.mclb.net.DropReason;
import io.mclb.radius.codec.RadiusAttributes;
import io.mclb.radius.codec.RadiusCodes;
import io.mclb.radius.codec.RadiusCrypto;
import io.mclb.radius.codec.RadiusDrops;
import io.mclb.radius.codec.RadiusPacket;
import io.mclb.radius.codec.RadiusSecret;
import io.mclb.select.StickyMode;
import io.mclb.service.Classification;
import io.mclb.service.ResponseVerdict;
import io.mclb.service.ServiceInspector;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyKind;
import io.mclb.transaction.Transaction;
import io.mclb.vserver.VirtualServer;
import io.micrometer.core.instrument.Counter;
import io.netty.buffer.ByteBuf;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * The RADIUS proxy of one virtual server on one event loop (radius/README.md "Behaviour").
 *
 * <p>Requests: framed ({@link RadiusPacket#wrap}), from a configured NAS (else
 * {@code radius_unknown_client}), verified with its secret (Accounting authenticator,
 * Message-Authenticator), then handed to the engine's one selection step with the subscriber's
 * sticky key (the first configured identity present) and the Framed-IP-Address as the route key
 * of a {@code predictor route-map} farm. Toward the real the identifier becomes the upstream id
 * and everything secret-dependent is re-signed with the real's secret ({@link #toReal}). Answers
 * are verified with the real's secret ({@link #onResponse}: a failure is dropped as
 * {@code radius_bad_response_authenticator}, also for late replays) and re-signed for the NAS.
 *
 * <p>A pass-through virtual server ({@link PassThroughRule}: mclb holds no secret) keeps the
 * NAS's identifier upstream ({@code Shape.idsPassThrough}: the engine only picks a socket where no
 * waiting request holds it) and changes no byte either way; it classifies by everything readable
 * without a secret, checks that an answer is framed and answers the request's code, and acts on
 * what an unverified request claims (Accounting-On/Off purge, a Stop's end) only once an AAA has
 * answered it. Counted in {@code mclb_radius_unverified_total{vserver,direction}}. The shape is
 * the listener's: a reload that makes a proxy virtual server pass-through drops its requests as
 * {@code radius_pass_through_needs_restart} until its listeners restart; the other way round, the
 * proxy re-signs under the NAS's own identifier.
 *
 * <p>Allocation: none per request once warm: a new request's {@link RadiusTx} comes from the
 * loop's {@link RadiusTxPool}, to which {@link #retired} returns it; the local answers (Status-Server,
 * local-ack) reuse the request's buffer; a VSA injection grows the request's buffer in place.
 * Never throws on datagram content.
 */
final class RadiusInspector implements ServiceInspector<RadiusTx> {
    static final int UPSTREAM_SOCKETS = 16;
    /** Type, length and the 16-octet HMAC-MD5 (RFC 2869 section 5.14). */
    private static final int MESSAGE_AUTHENTICATOR_LENGTH = 18;
    /** {@code mclb_radius_unverified_total{vserver,direction}}. */
    static final String UNVERIFIED = "mclb.radius.unverified";
    private final RadiusRuntime rt;
    private final VirtualServer vs;
    private final RadiusPacket p = new RadiusPacket();
    private final RadiusCrypto crypto = new RadiusCrypto();
    private final byte[] scratch = new byte[256];
    private final StickyKey key = new StickyKey();
    private final RadiusTxPool states = new RadiusTxPool();
    private final ResponseCounters responses;
    private final FramedIpLearner learner;
    private final VsaCorrelation vsaCorrelation;
    private final LocalAnswers local;
    /** Requests and answers forwarded unverified: counters exist only on a pass-through listener. */
    private final Counter unverifiedRequests;
    private final Counter unverifiedResponses;
    private RadiusSettings lastSettings;
    private VserverRadius vr;
    /** Fixed when the listeners start: a changed request timeout reaches new listeners only. */
    private final Shape shape;
    /** {@link io.mclb.net.SecurityLog} keys and lines, built once: nothing is allocated per bad datagram. */
    private final String secretKey;
    private final String clientKey;
    private final String unknownNas;
    private final String badRequestAuthenticator;
    private final String badMessageAuthenticator;
    private final String badResponse;
    private final String unsignedKey;
    private final String unsignedResponse;

    RadiusInspector(RadiusRuntime rt, VirtualServer vs) {
        this.rt = rt;
        this.vs = vs;
        this.responses = new ResponseCounters(rt.ctx.registry(), vs);
        this.learner = new FramedIpLearner(rt, vs);
        this.vsaCorrelation = new VsaCorrelation(rt, p);
        this.local = new LocalAnswers(vs, p, crypto, responses);
        VserverRadius v = settings();
        boolean passThrough = v != null && v.passThrough();
        this.shape = new Shape(8, UPSTREAM_SOCKETS,
                v == null ? VserverRadius.DEFAULT_REQUEST_TIMEOUT_MS : v.requestTimeoutMs(), passThrough);
        this.unverifiedRequests = passThrough ? unverified(rt, vs, "request") : null;
        this.unverifiedResponses = passThrough ? unverified(rt, vs, "response") : null;
        String on = "radius vserver " + vs.name() + ": ";
        this.secretKey = "radius-secret/" + vs.name();
        this.clientKey = "radius-client/" + vs.name();
        this.unknownNas = on + "request from a NAS no 'client' line names (radius_unknown_client)";
        this.badRequestAuthenticator = on + "the NAS's Accounting-Request authenticator does not verify with its"
                + " shared secret (radius_bad_authenticator): the NAS and mclb disagree on the secret";
        this.badMessageAuthenticator = on + "the NAS's Message-Authenticator does not verify with its shared secret"
                + " (radius_bad_message_authenticator): the NAS and mclb disagree on the secret";
        this.badResponse = on + "the AAA server's answer does not verify with the real's secret"
                + " (radius_bad_response_authenticator): the AAA server and mclb disagree on the secret";
        this.unsignedKey = "radius-unsigned/" + vs.name();
        this.unsignedResponse = on + "the AAA server answered an Access-Request without Message-Authenticator"
                + " (radius_response_missing_message_authenticator): an AAA from before the BlastRADIUS fixes"
                + " (CVE-2024-3596) does, and so does a forged answer";
    }

    private static Counter unverified(RadiusRuntime rt, VirtualServer vs, String direction) {
        return vs.metrics().keep(Counter.builder(UNVERIFIED).description("RADIUS datagrams a pass-through vserver"
                + " forwarded without verifying them (mclb holds no secret)").tag("vserver", vs.name())
                .tag("direction", direction).register(rt.ctx.registry()));
    }

    private VserverRadius settings() {
        RadiusSettings s = rt.settings;
        if (s != lastSettings) {
            lastSettings = s;
            vr = s.vservers.get(vs.name());
        }
        return vr;
    }

    /**
     * 8-bit Identifiers; 16 sockets per loop: 4,096 requests in flight per AAA per loop instead of
     * 256 (the Identifier per path), as FreeRADIUS's proxy opens several source ports per home
     * server. Measured: 256 capped a 300 ms AAA farm of three at about 3,500 requests/s.
     */
    @Override
    public Shape shape() {
        return shape;
    }

    @Override
    public void classify(ByteBuf datagram, InetSocketAddress client, Classification<RadiusTx> request) {
        DropReason bad = p.wrap(datagram);
        if (bad != null) {
            request.drop(bad);
            return;
        }
        int code = p.code();
        if (!RadiusCodes.isRequest(code)) {
            request.drop(RadiusDrops.NOT_A_REQUEST);
            return;
        }
        RadiusSettings settings = rt.settings;
        VserverRadius v = settings();
        if (v == null) {
            request.drop(RadiusDrops.UNKNOWN_CLIENT);
            return;
        }
        InetAddress nas = client.getAddress();
        RadiusSecret nasSecret = settings.clients.secretOf(nas);
        if (nasSecret == null && v.localAck() != null && code == RadiusCodes.ACCOUNTING_REQUEST) {
            nasSecret = v.localAck(); // IOS local-ack: its key is the secret of any NAS the client lines do not name
        }
        boolean passThrough = nasSecret == null && v.passThrough();
        if (passThrough && !shape.idsPassThrough()) {
            request.drop(RadiusDrops.PASS_THROUGH_NEEDS_RESTART); // these listeners rewrite identifiers
            return;
        }
        if (!passThrough) {
            if (nasSecret == null) {
                rt.security.warn(nas, clientKey, unknownNas);
                request.drop(RadiusDrops.UNKNOWN_CLIENT);
                return;
            }
            bad = crypto.verifyRequest(p, nasSecret);
            if (bad != null) {
                if (bad == RadiusDrops.BAD_AUTHENTICATOR || bad == RadiusDrops.BAD_MESSAGE_AUTHENTICATOR) {
                    rt.security.warn(nas, secretKey,
                            bad == RadiusDrops.BAD_AUTHENTICATOR ? badRequestAuthenticator : badMessageAuthenticator);
                }
                request.drop(bad);
                return;
            }
            if (v.maFromClients() && code == RadiusCodes.ACCESS_REQUEST && !p.hasMessageAuthenticator()) {
                request.drop(RadiusDrops.MISSING_MESSAGE_AUTHENTICATOR); // nothing in it proves the NAS's secret
                return;
            }
            p.trimPadding();
        }
        int nasIp = nas instanceof Inet4Address ? nas.hashCode() : 0;
        int id = p.identifier();
        int o = p.offset() + RadiusPacket.AUTHENTICATOR_OFFSET;
        long fingerprint = datagram.getLong(o) * 0x9e3779b97f4a7c15L + datagram.getLong(o + 8);
        if (code == RadiusCodes.STATUS_SERVER && !passThrough) {
            local.statusServer(datagram, nasSecret, request); // without a secret only the AAA can answer it
            return;
        }
        int status = -1;
        int framed = 0;
        boolean onOff = false;
        long nowMs = rt.ctx.clock().epochMillis();
        if (code == RadiusCodes.ACCOUNTING_REQUEST) {
            status = p.acctStatusType();
            framed = p.framedIpAddress();
            onOff = (status == RadiusAttributes.ACCT_STATUS_ACCOUNTING_ON
                    || status == RadiusAttributes.ACCT_STATUS_ACCOUNTING_OFF) && v.purgeOnOff() && nasIp != 0;
            if (onOff && !passThrough) {
                rt.purgeNas(nasIp);
            }
            if (v.localAck() != null) {
                if (status == RadiusAttributes.ACCT_STATUS_STOP && framed != 0 && v.learnGroup() != 0) {
                    learner.forget(v.learnGroup(), framed, nasIp);
                }
                if (framed != 0 && v.learnGroup() != 0 && (status == RadiusAttributes.ACCT_STATUS_START
                        || status == RadiusAttributes.ACCT_STATUS_INTERIM_UPDATE)) {
                    learner.learnLocally(v, framed, nasIp, nowMs);
                }
                local.accountingAck(datagram, nasSecret, request);
                return;
            }
        }
        RadiusTx tx = states.take(nasSecret, code, status, framed, nasIp);
        tx.purgeOnAnswer = onOff && passThrough; // an unverified On/Off purges only once an AAA accepted it
        request.request(id, fingerprint).state(tx);
        if (code == RadiusCodes.ACCESS_REQUEST || status == RadiusAttributes.ACCT_STATUS_START) {
            request.startsSession(); // what begins a subscriber's session: synguard counts it
        }
        if (!passThrough && code == RadiusCodes.ACCESS_REQUEST) {
            tx.nasSigned = p.hasMessageAuthenticator();
            if (v.maFromServers() && !tx.nasSigned) {
                tx.addMessageAuthenticator = true;
                request.grow(MESSAGE_AUTHENTICATOR_LENGTH);
            }
        }
        if (!passThrough && v.injectAuth() && code == RadiusCodes.ACCESS_REQUEST) {
            vsaCorrelation.remember(v);
        } else if (!passThrough && v.injectAcct() && status == RadiusAttributes.ACCT_STATUS_START) {
            tx.inject = vsaCorrelation.forAccountingStart();
            if (tx.inject != null) {
                request.grow(tx.inject.length);
            }
        }
        if (framed != 0) {
            request.routeKey(framed & 0xFFFF_FFFFL); // a route-map farm routes the subscriber by it
        }
        // a Stop is routed by its session's entry (to the AAA of the Start), then the entry goes
        boolean stop = status == RadiusAttributes.ACCT_STATUS_STOP && framed != 0 && v.learnGroup() != 0;
        tx.forgetFramedIp = stop;
        if (stickyKey(v, framed)) {
            request.stickyKey().copyFrom(key.bytes());
            boolean endsItsEntry = stop && key.kind() == RadiusStickyKinds.FRAMED_IP;
            request.sticky(v.subscriberSeconds(), endsItsEntry ? StickyMode.LOOKUP_ONLY : StickyMode.ON_ASSIGN);
        }
    }

    /** Fills {@link #key} with the first configured identity present; false when none applies. */
    private boolean stickyKey(VserverRadius v, int framed) {
        if (v.callingStationGroup() != 0) {
            int a = p.callingStationId();
            if (a >= 0 && p.valueLength(a) > 0) {
                return setKey(RadiusStickyKinds.CALLING_STATION_ID, v.callingStationGroup(), a);
            }
        }
        if (v.usernameGroup() != 0) {
            int a = p.tgppImsi(); // the IMSI names the subscriber; User-Name may be a realm or APN user
            if (a < 0 || p.valueLength(a) <= 0) {
                a = p.userName();
            }
            if (a >= 0 && p.valueLength(a) > 0) {
                return setKey(RadiusStickyKinds.USERNAME, v.usernameGroup(), a);
            }
        }
        if (v.framedIpGroup() != 0 && framed != 0) {
            framedKey(v.framedIpGroup(), framed);
            return true;
        }
        return false;
    }

    private boolean setKey(StickyKind kind, int group, int attribute) {
        int len = p.valueLength(attribute);
        p.buffer().getBytes(RadiusPacket.valueIndex(attribute), scratch, 0, len);
        key.set(kind, group, scratch, 0, len);
        return true;
    }

    private void framedKey(int group, int framed) {
        scratch[0] = (byte) (framed >>> 24);
        scratch[1] = (byte) (framed >>> 16);
        scratch[2] = (byte) (framed >>> 8);
        scratch[3] = (byte) framed;
        key.set(RadiusStickyKinds.FRAMED_IP, group, scratch, 0, 4);
    }

    @Override
    public void retired(RadiusTx state) {
        states.retired(state);
    }

    /** This inspector's state pool (tests). */
    RadiusTxPool states() {
        return states;
    }

    // ---- the engine's hooks after classification ----

    @Override
    public long responseId(ByteBuf datagram) {
        return datagram.readableBytes() >= RadiusPacket.HEADER_LENGTH
                ? datagram.getUnsignedByte(datagram.readerIndex() + 1) : -1;
    }

    /**
     * Writes the upstream identifier and re-signs for the real: the identifier is written here,
     * under the new authenticators, because the NAS's authenticator covers it.
     */
    @Override
    public void toReal(ByteBuf datagram, Transaction<RadiusTx> t) {
        RadiusTx tx = t.state();
        if (tx != null && tx.passThrough()) {
            unverifiedRequests.increment(); // the upstream id is the NAS's own: not a byte changes
            return;
        }
        if (tx == null || p.wrap(datagram) != null) {
            return;
        }
        if (tx.forgetFramedIp) {
            // after the selection step routed the Stop by the entry (and only once, not per retransmission)
            tx.forgetFramedIp = false;
            VserverRadius v = settings();
            if (v != null && v.learnGroup() != 0) {
                learner.forget(v.learnGroup(), tx.framedIp, tx.nasIp);
            }
        }
        RadiusSecret realSecret = rt.realSecrets.of(t.real().id());
        if (realSecret == null) {
            return; // validation requires a key on every real of a radius farm; the real will discard it
        }
        p.trimPadding();
        if (tx.inject != null && p.length() + tx.inject.length <= RadiusPacket.MAX_LENGTH) {
            int end = p.end();
            datagram.ensureWritable(tx.inject.length);
            datagram.setBytes(end, tx.inject);
            datagram.writerIndex(end + tx.inject.length);
            datagram.setShort(p.offset() + 2, p.length() + tx.inject.length);
            if (p.wrap(datagram) != null) {
                return;
            }
        }
        if (tx.addMessageAuthenticator && !addMessageAuthenticator(datagram)) {
            return; // no longer frames: nothing is re-signed, the real discards it
        }
        boolean repeat = tx.sentTo == t.real() && tx.sentId == t.upstreamId();
        crypto.reSignVerifiedRequest(p, tx.nasSecret, realSecret, (int) t.upstreamId(), tx.nasAuth,
                repeat ? tx.upstreamAuth : null);
        p.authenticator(tx.upstreamAuth);
        tx.realSecret = realSecret;
        tx.sentTo = t.real();
        tx.sentId = t.upstreamId();
    }

    /** Verifies with the real's secret (also a late replay), then learns framed IPs from first answers. */
    @Override
    public ResponseVerdict onResponse(ByteBuf datagram, Transaction<RadiusTx> t) {
        DropReason bad = p.wrap(datagram);
        if (bad != null) {
            return t.drop(bad);
        }
        RadiusTx tx = t.state();
        if (tx != null && tx.passThrough()) {
            return passThroughResponse(t, tx);
        }
        if (tx == null || tx.realSecret == null) {
            return t.drop(RadiusDrops.BAD_RESPONSE_AUTHENTICATOR);
        }
        if (!RadiusCodes.isResponse(p.code())) {
            return t.drop(RadiusDrops.UNSUPPORTED_CODE);
        }
        bad = crypto.verifyResponse(p, tx.code, tx.realSecret, tx.upstreamAuth);
        if (bad == RadiusDrops.BAD_AUTHENTICATOR || bad == RadiusDrops.BAD_MESSAGE_AUTHENTICATOR) {
            rt.security.warn(t.real().address(), secretKey, badResponse);
            return t.drop(RadiusDrops.BAD_RESPONSE_AUTHENTICATOR);
        }
        if (bad != null) {
            return t.drop(bad);
        }
        VserverRadius v = settings();
        if (v != null && v.maFromServers() && tx.code == RadiusCodes.ACCESS_REQUEST && !p.hasMessageAuthenticator()) {
            rt.security.warn(t.real().address(), unsignedKey, unsignedResponse);
            return t.drop(RadiusDrops.RESPONSE_MISSING_MESSAGE_AUTHENTICATOR);
        }
        if (!t.answered() && v != null) {
            learn(v, t, tx);
        }
        tx.signAnswer = tx.nasSigned && !p.hasMessageAuthenticator();
        return ResponseVerdict.FORWARD;
    }

    @Override
    public int answerGrowth(Transaction<RadiusTx> t) {
        RadiusTx tx = t.state();
        return tx != null && tx.signAnswer ? MESSAGE_AUTHENTICATOR_LENGTH : 0;
    }

    /**
     * Appends an empty Message-Authenticator to the packet in {@code datagram} (the engine grew
     * its buffer for it) for the re-signing to compute; false when it no longer frames. A packet
     * already at RADIUS's 4,096 octets goes unchanged (a request's answer is then dropped unsigned
     * where one is required).
     */
    private boolean addMessageAuthenticator(ByteBuf datagram) {
        int end = p.end();
        if (p.length() + MESSAGE_AUTHENTICATOR_LENGTH > RadiusPacket.MAX_LENGTH
                || datagram.maxWritableBytes() < end + MESSAGE_AUTHENTICATOR_LENGTH - datagram.writerIndex()) {
            return true;
        }
        datagram.ensureWritable(end + MESSAGE_AUTHENTICATOR_LENGTH - datagram.writerIndex());
        datagram.setByte(end, RadiusAttributes.MESSAGE_AUTHENTICATOR);
        datagram.setByte(end + 1, MESSAGE_AUTHENTICATOR_LENGTH);
        datagram.setZero(end + 2, MESSAGE_AUTHENTICATOR_LENGTH - 2);
        datagram.writerIndex(end + MESSAGE_AUTHENTICATOR_LENGTH);
        datagram.setShort(p.offset() + 2, p.length() + MESSAGE_AUTHENTICATOR_LENGTH);
        return p.wrap(datagram) == null;
    }

    /**
     * Without a secret the answer cannot be verified: it must be well framed and answer the
     * request's code. Its first arrival is the AAA's word that the request verified, so what an
     * unverified request would only claim (an Accounting-On/Off purge, a Stop's end of session)
     * is done now.
     */
    private ResponseVerdict passThroughResponse(Transaction<RadiusTx> t, RadiusTx tx) {
        if (!RadiusCodes.answers(tx.code, p.code())) {
            return t.drop(RadiusDrops.RESPONSE_CODE_MISMATCH);
        }
        VserverRadius v = settings();
        if (t.answered() || v == null) {
            return ResponseVerdict.FORWARD;
        }
        if (tx.purgeOnAnswer) {
            rt.purgeNas(tx.nasIp);
        }
        if (tx.forgetFramedIp && v.learnGroup() != 0) {
            learner.forget(v.learnGroup(), tx.framedIp, tx.nasIp);
        }
        learn(v, t, tx);
        return ResponseVerdict.FORWARD;
    }

    /** Framed-IP learning from a first answer: Access-Accept's Framed-IP, an answered Start or Interim's. */
    private void learn(VserverRadius v, Transaction<RadiusTx> t, RadiusTx tx) {
        if (v.learnGroup() == 0) {
            return;
        }
        int code = p.code();
        if (code == RadiusCodes.ACCESS_ACCEPT && tx.code == RadiusCodes.ACCESS_REQUEST) {
            int framed = p.framedIpAddress();
            if (framed != 0) {
                learner.learn(v.learnGroup(), framed, t.real(), tx.nasIp, v.subscriberSeconds());
            }
        } else if (code == RadiusCodes.ACCOUNTING_RESPONSE && tx.framedIp != 0
                && (tx.acctStatus == RadiusAttributes.ACCT_STATUS_START
                || tx.acctStatus == RadiusAttributes.ACCT_STATUS_INTERIM_UPDATE)) {
            learner.learn(v.learnGroup(), tx.framedIp, t.real(), tx.nasIp, v.subscriberSeconds());
        }
    }

    @Override
    public void toClient(ByteBuf datagram, Transaction<RadiusTx> t) {
        RadiusTx tx = t.state();
        if (tx != null && tx.passThrough()) {
            unverifiedResponses.increment(); // onResponse framed it; the Identifier already is the NAS's
            responses.count(datagram.getUnsignedByte(datagram.readerIndex()));
            return;
        }
        if (tx == null || p.wrap(datagram) != null) {
            return;
        }
        p.trimPadding();
        if (tx.signAnswer && !p.hasMessageAuthenticator() && !addMessageAuthenticator(datagram)) {
            return;
        }
        crypto.reSignVerifiedResponse(p, tx.code, tx.realSecret, tx.upstreamAuth, tx.nasSecret, tx.nasAuth,
                (int) t.originalId());
        responses.count(p.code());
    }
}
