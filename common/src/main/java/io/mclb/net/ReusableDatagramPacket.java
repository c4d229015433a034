package io.mclb.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.IllegalReferenceCountException;

import java.net.InetSocketAddress;

/**
 * A {@link DatagramPacket} whose content and addresses are set per use, so one object carries
 * datagram after datagram: Netty's channels and mclb's relays take a {@code DatagramPacket}, and
 * allocating one per datagram was the last steady allocation of the data path. Every accessor
 * Netty calls is overridden: the superclass's final fields hold only a placeholder.
 *
 * <p>Reference counting follows {@link DatagramPacket}'s (the packet's count is its content's) with
 * one addition: once released to zero the packet holds nothing, {@link #content()} throws, and
 * {@link #onReleased()} may give the object back to its owner. Confined to one event loop.
 */
public abstract class ReusableDatagramPacket extends DatagramPacket {
    private static final InetSocketAddress NOWHERE = new InetSocketAddress(0);

    private ByteBuf content;
    private InetSocketAddress recipient;
    private InetSocketAddress sender;
    private int refs;

    protected ReusableDatagramPacket() {
        super(Unpooled.EMPTY_BUFFER, NOWHERE);
    }

    /** Makes this the packet of {@code content} (owned: released with the packet) with one reference. */
    protected final void set(ByteBuf content, InetSocketAddress recipient, InetSocketAddress sender) {
        this.content = content;
        this.recipient = recipient;
        this.sender = sender;
        this.refs = 1;
    }

    /** The last reference was released; the packet is empty and may be reused. */
    protected abstract void onReleased();

    @Override
    public final ByteBuf content() {
        if (refs <= 0) {
            throw new IllegalReferenceCountException(0);
        }
        return content;
    }

    @Override
    public final InetSocketAddress recipient() {
        return recipient;
    }

    @Override
    public final InetSocketAddress sender() {
        return sender;
    }

    @Override
    public final int refCnt() {
        return refs <= 0 ? 0 : content.refCnt();
    }

    @Override
    public final DatagramPacket retain() {
        return retain(1);
    }

    @Override
    public final DatagramPacket retain(int increment) {
        if (refs <= 0) {
            throw new IllegalReferenceCountException(0, increment);
        }
        content.retain(increment);
        refs += increment;
        return this;
    }

    @Override
    public final boolean release() {
        return release(1);
    }

    @Override
    public final boolean release(int decrement) {
        if (refs <= 0 || decrement > refs) {
            throw new IllegalReferenceCountException(refs, -decrement);
        }
        ByteBuf c = content;
        refs -= decrement;
        if (refs > 0) {
            return c.release(decrement);
        }
        content = null;
        recipient = null;
        sender = null;
        onReleased();
        return c.release(decrement);
    }

    @Override
    public final DatagramPacket touch() {
        return this;
    }

    @Override
    public final DatagramPacket touch(Object hint) {
        return this;
    }

    @Override
    public final DatagramPacket replace(ByteBuf replacement) {
        return new DatagramPacket(replacement, recipient, sender);
    }

    @Override
    public final DatagramPacket copy() {
        return replace(content().copy());
    }

    @Override
    public final DatagramPacket duplicate() {
        return replace(content().duplicate());
    }

    @Override
    public final DatagramPacket retainedDuplicate() {
        return replace(content().retainedDuplicate());
    }

    @Override
    public String toString() {
        return "DatagramPacket(" + sender + " => " + recipient + ", " + content + ")";
    }
}
