package io.mclb.transaction;

import io.mclb.config.ConfigBlock;
import io.mclb.config.ConfigLine;
import io.mclb.net.DropReason;
import io.mclb.select.StickyMode;
import io.mclb.service.Classification;
import io.mclb.service.ConfigSyntax;
import io.mclb.service.ResponseVerdict;
import io.mclb.service.ServiceInspector;
import io.mclb.service.ServiceModule;
import io.mclb.testing.TestStickyKinds;
import io.mclb.vserver.VirtualServer;
import io.netty.buffer.ByteBuf;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * A minimal request/response protocol for engine tests, service {@code test-id}.
 *
 * <pre>
 *  0        1                 3          4
 * +--------+--------+--------+----------+----------------+---------+
 * | type   | id (16 bit, BE)  | stickyLen| sticky bytes   | payload |
 * +--------+--------+--------+----------+----------------+---------+
 * type: 1 request, 2 response, 3 local echo request (mclb answers), 4 reject,
 *       5 follow-up request (the sticky bytes are the 8-byte id of the real it belongs to),
 *       6 one-way request (an "ack": no answer comes; the real records it and stays silent)
 * </pre>
 *
 * A response whose payload starts with {@link #SESSION_FLAG} is judged FORWARD_SESSION, one
 * starting with {@link #DROP_FLAG} DROP.
 */
public final class EchoIdService implements ServiceModule, ConfigSyntax {
    public static final String SERVICE = "test-id";
    public static final int REQUEST = 1;
    public static final int RESPONSE = 2;
    public static final int LOCAL_ECHO = 3;
    public static final int REJECT = 4;
    public static final int FOLLOW_UP = 5;
    public static final int ONE_WAY = 6;
    public static final byte SESSION_FLAG = 'S';
    public static final byte DROP_FLAG = 'D';
    public static final int STICKY_GROUP = 1;

    private final long requestTimeoutMs;
    /** Read on the event loop per request; tests flip it between requests. */
    volatile boolean stickyOnAnswer;
    /** Read when the relays are created (runtime start): set them before. */
    volatile int idBits = 16;
    volatile int upstreamSockets = 1;
    /** Ids pass through to the reals unmodified (read when the relays are created). */
    volatile boolean idsPassThrough;

    public EchoIdService(long requestTimeoutMs) {
        this.requestTimeoutMs = requestTimeoutMs;
    }

    @Override
    public ConfigSyntax syntax() {
        return this;
    }

    @Override
    public ServiceInspector<?> newInspector(VirtualServer vs) {
        return new Inspector();
    }

    @Override
    public String owner() {
        return "test";
    }

    @Override
    public Claim claimLine(ConfigBlock block, ConfigLine line) {
        return Claim.notMine();
    }

    @Override
    public List<String> services() {
        return List.of(SERVICE);
    }

    /** Offset of the payload, or -1 when the header or sticky bytes are truncated. */
    static int payloadOffset(ByteBuf b) {
        int r = b.readerIndex();
        if (b.readableBytes() < 4) {
            return -1;
        }
        int len = b.getUnsignedByte(r + 3);
        return b.readableBytes() < 4 + len ? -1 : 4 + len;
    }

    private final class Inspector implements ServiceInspector<Void> {
        private final byte[] sticky = new byte[255];
        private final Shape shape = new Shape(idBits, upstreamSockets, requestTimeoutMs, idsPassThrough);

        @Override
        public Shape shape() {
            return shape;
        }

        @Override
        public void classify(ByteBuf d, InetSocketAddress client, Classification<Void> request) {
            int p = payloadOffset(d);
            if (p < 0) {
                request.drop(DropReason.MALFORMED);
                return;
            }
            int r = d.readerIndex();
            int type = d.getUnsignedByte(r);
            int id = d.getUnsignedShort(r + 1);
            if (type == REQUEST) {
                request.request(id, 0).keepCopy();
                int len = d.getUnsignedByte(r + 3);
                if (len > 0) {
                    int n = Math.min(len, 16);
                    d.getBytes(r + 4, sticky, 0, n);
                    request.stickyKey().set(TestStickyKinds.RADIUS_USERNAME, STICKY_GROUP, sticky, 0, n);
                    request.sticky(60, stickyOnAnswer ? StickyMode.ON_ANSWER : StickyMode.ON_ASSIGN);
                }
            } else if (type == FOLLOW_UP && d.getUnsignedByte(r + 3) == 8) {
                request.followUp(id, 0, d.getLong(r + 4)).keepCopy();
            } else if (type == ONE_WAY) {
                request.request(id, 0).oneWay();
            } else if (type == LOCAL_ECHO) {
                ByteBuf answer = d.alloc().buffer(4);
                answer.writeByte(RESPONSE).writeShort(id).writeByte(0);
                request.local(answer);
            } else {
                request.drop(DropReason.MALFORMED);
            }
        }

        @Override
        public void toReal(ByteBuf d, Transaction<Void> tx) {
            if (shape.idsPassThrough()) {
                return; // the datagram travels as the client sent it
            }
            d.setShort(d.readerIndex() + 1, (int) tx.upstreamId());
        }

        @Override
        public long responseId(ByteBuf d) {
            if (d.readableBytes() < 3) {
                return -1;
            }
            int type = d.getUnsignedByte(d.readerIndex());
            return type == RESPONSE || type == REJECT ? d.getUnsignedShort(d.readerIndex() + 1) : -1;
        }

        @Override
        public void toClient(ByteBuf d, Transaction<Void> tx) {
            d.setShort(d.readerIndex() + 1, (int) tx.originalId());
        }

        @Override
        public ResponseVerdict onResponse(ByteBuf d, Transaction<Void> tx) {
            if (tx.answered()) {
                return ResponseVerdict.FORWARD; // a replayed answer: nothing to judge again
            }
            if (d.getUnsignedByte(d.readerIndex()) == REJECT) {
                return ResponseVerdict.REASSIGN;
            }
            int p = payloadOffset(d);
            byte flag = p > 0 && d.readableBytes() > p ? d.getByte(d.readerIndex() + p) : 0;
            return flag == SESSION_FLAG ? ResponseVerdict.FORWARD_SESSION
                    : flag == DROP_FLAG ? ResponseVerdict.DROP : ResponseVerdict.FORWARD;
        }
    }
}
