package io.mclb.perf.mobility;

import io.mclb.gtp.asn.AsnHeader;
import io.mclb.gtp.mip.MipMessage;
import io.mclb.perf.gtp.sim.CauseMix;
import io.mclb.perf.load.ReplyHandler;
import io.mclb.perf.load.UdpServer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.LongAdder;

/**
 * Simulated mobility peers for tests and load, on one event loop:
 * <ul>
 * <li>{@link #homeAgents}: home agents answering every well-formed Registration Request with a
 *     Registration Reply (RFC 5944 3.4): a code drawn from a seeded mix (e.g. {@code 0:95,130:5}),
 *     the requested lifetime capped at 1800 s, the request's Home Address, the socket's own address
 *     as Home Agent, and an Identification whose low 32 bits are the request's (5.7);</li>
 * <li>{@link #asnGateways}: ASN gateways answering every R6 Request (OP ID 1) with its Response
 *     (OP ID 2, the next message type: MS_PreAttachment_Rsp for a Req, MS_Attachment_Rsp ...), the
 *     same MSID and transaction ID; Acks and Indications are taken silently.</li>
 * </ul>
 * Answers go to the request's source, optionally {@code latencyMicros} later. Counters are adders.
 */
public final class MobilitySimulator implements AutoCloseable {
    private static final int MAX_LIFETIME = 1800;

    private final UdpServer server = new UdpServer();
    private final List<InetSocketAddress> bound = new ArrayList<>();
    private final LongAdder received = new LongAdder();
    private final LongAdder answered = new LongAdder();
    private final LongAdder malformed = new LongAdder();

    private MobilitySimulator() {
    }

    public static MobilitySimulator homeAgents(List<InetSocketAddress> listen, CauseMix codes, long latencyMicros,
                                               long seed) {
        MobilitySimulator s = new MobilitySimulator();
        Random random = new Random(seed);
        MipMessage m = new MipMessage();
        for (InetSocketAddress a : listen) {
            int own = ipv4(a);
            s.bind(a, latencyMicros, (req, alloc) -> {
                if (!m.wrap(req) || !m.isRequest()) {
                    return null;
                }
                int r = req.readerIndex();
                return alloc.ioBuffer(MipMessage.REPLY_FIXED).writeByte(MipMessage.TYPE_REPLY).writeByte(codes.pick(random))
                        .writeShort(Math.min(m.lifetime(), MAX_LIFETIME)).writeInt(m.homeAddress()).writeInt(own)
                        .writeInt((int) (System.nanoTime() >>> 20)).writeInt(req.getInt(r + 20));
            });
        }
        return s;
    }

    public static MobilitySimulator asnGateways(List<InetSocketAddress> listen, long latencyMicros) {
        MobilitySimulator s = new MobilitySimulator();
        AsnHeader h = new AsnHeader();
        for (InetSocketAddress a : listen) {
            s.bind(a, latencyMicros, (req, alloc) -> {
                if (!h.wrap(req) || h.opId() != AsnHeader.OP_REQUEST) {
                    return null;
                }
                int r = req.readerIndex();
                int len = req.getUnsignedShort(r + 4);
                ByteBuf out = alloc.ioBuffer(len).writeBytes(req, r, len);
                out.setByte(3, (AsnHeader.OP_RESPONSE << 5) | ((h.messageType() + 1) & 0x1F));
                return out;
            });
        }
        return s;
    }

    private static int ipv4(InetSocketAddress a) {
        byte[] b = a.getAddress().getAddress();
        return b.length == 4 ? ((b[0] & 0xFF) << 24) | ((b[1] & 0xFF) << 16) | ((b[2] & 0xFF) << 8) | (b[3] & 0xFF) : 0;
    }

    private interface Answerer {
        ByteBuf answer(ByteBuf request, ByteBufAllocator alloc);
    }

    private void bind(InetSocketAddress a, long latencyMicros, Answerer answerer) {
        try {
            bound.add(server.bind(a, new ReplyHandler(latencyMicros * 1000, "mobility simulator") {
                @Override
                protected ByteBuf answer(ByteBuf request, ByteBufAllocator alloc) {
                    received.increment();
                    ByteBuf out = answerer.answer(request, alloc);
                    if (out == null) {
                        malformed.increment();
                    } else {
                        answered.increment();
                    }
                    return out;
                }
            }));
        } catch (RuntimeException e) {
            close();
            throw new IllegalStateException("cannot bind simulator on " + a, e);
        }
    }

    public List<InetSocketAddress> boundAddresses() {
        return List.copyOf(bound);
    }

    public long received() {
        return received.sum();
    }

    public long answered() {
        return answered.sum();
    }

    /** Datagrams not answered: not a request (or, for R6, an Ack or Indication). */
    public long unanswered() {
        return malformed.sum();
    }

    @Override
    public void close() {
        server.close();
    }
}
