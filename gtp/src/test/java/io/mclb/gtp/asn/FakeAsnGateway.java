package io.mclb.gtp.asn;

import io.mclb.gtp.FakeUdpPeer;

import java.io.IOException;

/**
 * An ASN gateway on loopback: answers every R6 Request (OP ID 1) with the Response (OP ID 2, the
 * next message type, the same MSID and transaction ID); Acks and Indications get no answer.
 */
final class FakeAsnGateway extends FakeUdpPeer {
    FakeAsnGateway(String address) throws IOException {
        super(address, "fake-asngw");
    }

    @Override
    protected byte[] answer(byte[] d) {
        if (d.length < 20 || R6.op(d) != 1) {
            return null;
        }
        d[3] = (byte) ((2 << 5) | ((R6.type(d) + 1) & 0x1F));
        return d;
    }
}
