package io.mclb.radius.lb;

import io.mclb.radius.codec.RadiusAttributes;
import io.mclb.radius.codec.RadiusCodes;
import io.mclb.radius.codec.RadiusCrypto;
import io.mclb.radius.codec.RadiusPacket;
import io.mclb.radius.codec.RadiusSecret;
import io.mclb.service.Classification;
import io.mclb.vserver.VirtualServer;
import io.netty.buffer.ByteBuf;

/**
 * The answers mclb gives itself (Status-Server, {@code radius acct local-ack}), written into the
 * request's own buffer and signed with the secret the request verified with. Shares the
 * inspector's flyweight and crypto: loop-confined like it.
 */
final class LocalAnswers {
    private final VirtualServer vs;
    private final RadiusPacket p;
    private final RadiusCrypto crypto;
    private final ResponseCounters responses;
    private final byte[] auth = new byte[16];

    LocalAnswers(VirtualServer vs, RadiusPacket p, RadiusCrypto crypto, ResponseCounters responses) {
        this.vs = vs;
        this.p = p;
        this.crypto = crypto;
        this.responses = responses;
    }

    /** RFC 5997: Access-Accept on an authentication port, Accounting-Response on an accounting port. */
    void statusServer(ByteBuf buf, RadiusSecret nasSecret, Classification<RadiusTx> request) {
        int port = vs.snapshot().config().port();
        boolean acct = port == 1813 || port == 1646;
        p.authenticator(auth);
        int o = p.offset();
        buf.setByte(o, acct ? RadiusCodes.ACCOUNTING_RESPONSE : RadiusCodes.ACCESS_ACCEPT);
        buf.setShort(o + 2, 38);
        buf.setByte(o + 20, RadiusAttributes.MESSAGE_AUTHENTICATOR);
        buf.setByte(o + 21, 18);
        buf.setZero(o + 22, 16);
        buf.writerIndex(o + 38); // a Status-Server carries Message-Authenticator: 38 octets at least
        p.wrap(buf);
        crypto.signMessageAuthenticator(p, nasSecret, RadiusCodes.STATUS_SERVER, auth);
        crypto.signResponse(p, auth, nasSecret);
        responses.count(p.code());
        request.local(buf.retain());
    }

    void accountingAck(ByteBuf buf, RadiusSecret secret, Classification<RadiusTx> request) {
        p.authenticator(auth);
        int o = p.offset();
        buf.setByte(o, RadiusCodes.ACCOUNTING_RESPONSE);
        buf.setShort(o + 2, RadiusPacket.HEADER_LENGTH);
        buf.writerIndex(o + RadiusPacket.HEADER_LENGTH);
        p.wrap(buf);
        crypto.signResponse(p, auth, secret);
        responses.count(RadiusCodes.ACCOUNTING_RESPONSE);
        request.local(buf.retain());
    }
}
