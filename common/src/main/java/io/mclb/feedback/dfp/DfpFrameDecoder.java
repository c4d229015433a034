package io.mclb.feedback.dfp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;

import static io.mclb.feedback.dfp.DfpWire.*;

/**
 * Cuts the TCP stream into DFP messages (reference/dfp-kalap.md section 8.1): reads the 8-octet
 * header, checks the version and the length before buffering the body (so a peer cannot make us
 * hold more than {@link DfpWire#MAX_MESSAGE_LENGTH}), then checks every TLV length of the whole
 * message ({@link DfpMessage#wrap}). A consistent message goes up the pipeline as one retained
 * {@link ByteBuf}; the first inconsistency fires a {@link Refused} event, discards the rest of the
 * stream and closes the connection: after a framing error nothing that follows can be trusted.
 * A stream that ends inside a message fires {@link Refused} with {@link DfpRefusal#TRUNCATED}.
 */
public final class DfpFrameDecoder extends ByteToMessageDecoder {
    /** The event a refused stream fires, once. */
    public record Refused(DfpRefusal reason) {
    }

    private final DfpMessage check = new DfpMessage();
    private boolean refused;

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (refused) {
            in.skipBytes(in.readableBytes());
            return;
        }
        while (in.readableBytes() >= HEADER_LENGTH) {
            int r = in.readerIndex();
            if (in.getUnsignedByte(r) != VERSION) {
                refuse(ctx, in, DfpRefusal.BAD_VERSION);
                return;
            }
            long len = in.getUnsignedInt(r + 4);
            if (len < HEADER_LENGTH) {
                refuse(ctx, in, DfpRefusal.BAD_LENGTH);
                return;
            }
            if (len > MAX_MESSAGE_LENGTH) {
                refuse(ctx, in, DfpRefusal.TOO_LONG);
                return;
            }
            if (in.readableBytes() < len) {
                return;
            }
            ByteBuf frame = in.readRetainedSlice((int) len);
            DfpRefusal bad = check.wrap(frame);
            if (bad != null) {
                frame.release();
                refuse(ctx, in, bad);
                return;
            }
            out.add(frame);
        }
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        decode(ctx, in, out);
        if (!refused && in.isReadable()) {
            refuse(ctx, in, DfpRefusal.TRUNCATED);
        }
    }

    private void refuse(ChannelHandlerContext ctx, ByteBuf in, DfpRefusal reason) {
        refused = true;
        in.skipBytes(in.readableBytes());
        ctx.fireUserEventTriggered(new Refused(reason));
        ctx.close();
    }
}
