package io.netty.channel.epoll;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelPipeline;
import io.netty.util.internal.PlatformDependent;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The datagrams {@link MclbDatagramChannel#send} took and the kernel has not yet: a ring of
 * (content, recipient, address, length) in parallel arrays, no object per datagram (Netty's outbound buffer adds an
 * {@code Entry} and a promise per write and takes them out again for sendmmsg). The ring starts
 * small and doubles up to {@link #MAX}: a socket that the kernel stops taking from (its send buffer
 * full for longer than the relay's burst) holds at most that many, and the caller drops and
 * counts the rest. Growth allocates; a steady state does not.
 *
 * <p>A datagram waits either in its own buffer or, once the channel's flush committed it to the
 * loop's I/O pass ({@link #commit}), as a copy in the pass's arena ({@link PassSends}): its content
 * array slot is then null and its address and length point into the arena. Both kinds keep their
 * order in the one ring. Owns the contents it holds (released when sent, failed, copied or
 * closed). Confined to the channel's event loop.
 */
final class SendQueue {
    /** Datagrams waiting on one socket at most (a 4,096-deep burst at the relay's 64-slot read batches). */
    static final int MAX = 4096;
    private static final int INITIAL = 16;

    private ByteBuf[] contents = new ByteBuf[INITIAL];
    private InetSocketAddress[] recipients = new InetSocketAddress[INITIAL];
    /** Where each datagram's bytes are: in its content, or (content null) in the pass's arena. */
    private long[] addresses = new long[INITIAL];
    private int[] lengths = new int[INITIAL];
    /** Index of the oldest datagram; {@code count} follow it, wrapping at the array's length (a power of two). */
    private int head;
    private int count;
    /** The newest datagrams not yet committed to the pass: the tail of the ring. */
    private int uncommitted;
    /** Datagrams whose bytes are in the pass's arena. */
    private int inArena;
    /** sendmmsg calls made (tests: one per socket and pass). */
    private long sendCalls;

    boolean isEmpty() {
        return count == 0;
    }

    int size() {
        return count;
    }

    /** Appends; false when {@link #MAX} are waiting (the caller keeps {@code content}). */
    boolean add(ByteBuf content, InetSocketAddress recipient) {
        if (count == contents.length) {
            if (count == MAX) {
                return false;
            }
            grow();
        }
        int i = (head + count) & (contents.length - 1);
        contents[i] = content;
        recipients[i] = recipient;
        addresses[i] = content.memoryAddress() + content.readerIndex();
        lengths[i] = content.readableBytes();
        count++;
        uncommitted++;
        return true;
    }

    /**
     * Copies the datagrams added since the last commit into {@code pass}'s arena and releases their
     * buffers; false (nothing changed) when one is larger than {@link PassSends#MAX_COPIED} or the
     * arena has no room for them all: the caller sends now instead.
     */
    boolean commit(PassSends pass) {
        int mask = contents.length - 1;
        int from = count - uncommitted;
        int bytes = 0;
        for (int n = from; n < count; n++) {
            int length = lengths[(head + n) & mask];
            if (length > PassSends.MAX_COPIED) {
                return false;
            }
            bytes += PassSends.footprint(length);
        }
        if (bytes > pass.room()) {
            return false;
        }
        for (int n = from; n < count; n++) {
            int i = (head + n) & mask;
            addresses[i] = pass.copy(contents[i]);
            contents[i].release();
            contents[i] = null;
        }
        inArena += uncommitted;
        uncommitted = 0;
        return true;
    }

    boolean hasArenaCopies() {
        return inArena > 0;
    }

    /**
     * Moves every datagram still in the arena into a direct buffer of {@code alloc}'s (the pass
     * ends and its arena is reused; they wait for writability in their own memory). The buffers
     * have memory addresses where this queue is used at all: mclb's helper needs sun.misc.Unsafe,
     * and with it every direct buffer of Netty's has one.
     */
    void leaveArena(ByteBufAllocator alloc) {
        int mask = contents.length - 1;
        for (int n = 0; n < count && inArena > 0; n++) {
            int i = (head + n) & mask;
            if (contents[i] == null) {
                ByteBuf copy = alloc.directBuffer(lengths[i]);
                PlatformDependent.copyMemory(addresses[i], copy.memoryAddress(), lengths[i]);
                copy.writerIndex(lengths[i]);
                contents[i] = copy;
                addresses[i] = copy.memoryAddress();
                inArena--;
            }
        }
    }

    /**
     * Writes the oldest datagrams into {@code vector} (cleared first), as many as it takes, and
     * returns how many; {@code batch} turns each recipient into its sockaddr.
     */
    int fill(MmsgVector vector, SendBatch batch, boolean ipv6Socket) {
        vector.clear();
        int mask = contents.length - 1;
        int n = 0;
        while (n < count) {
            int i = (head + n) & mask;
            if (!batch.add(vector, addresses[i], lengths[i], recipients[i], ipv6Socket)) {
                break;
            }
            n++;
        }
        return n;
    }

    /**
     * Sends what waits with sendmmsg over the loop's vector, oldest first, until all went or the
     * socket's buffer is full; true when nothing is left. A datagram the kernel refuses (sendmmsg
     * fails on the first of a batch: EMSGSIZE, EACCES, an unreachable network...) is released and
     * its error goes to {@code pipeline}'s exceptionCaught, as Netty's write does with the
     * channel's void promise, and the rest still go.
     */
    boolean drain(int fd, SendBatch batch, boolean ipv6Socket, ChannelPipeline pipeline) {
        MmsgVector vector = SendBatch.loopVector();
        while (count > 0) {
            int sent;
            try {
                // each pass sends at least one or stops: the loop ends by itself
                sent = fill(vector, batch, ipv6Socket) == 0 ? -1 : send(vector, fd);
            } catch (IOException e) {
                releaseOldest(1);
                pipeline.fireExceptionCaught(e);
                continue;
            }
            if (sent < 0) {
                // cannot happen (send() takes only what a vector slot takes); never spin on it
                releaseOldest(1);
                pipeline.fireExceptionCaught(new IOException("datagram refused by the send vector"));
                continue;
            }
            if (sent == 0) {
                return false;
            }
            releaseOldest(sent);
        }
        return true;
    }

    private int send(MmsgVector vector, int fd) throws IOException {
        sendCalls++;
        return vector.send(fd);
    }

    long sendCalls() {
        return sendCalls;
    }

    /** Releases and forgets the {@code n} oldest (sent, or the one that failed). */
    void releaseOldest(int n) {
        int mask = contents.length - 1;
        for (int k = 0; k < n; k++) {
            if (contents[head] != null) {
                contents[head].release();
                contents[head] = null;
            } else {
                inArena--;
            }
            recipients[head] = null;
            head = (head + 1) & mask;
        }
        count -= n;
        uncommitted = Math.min(uncommitted, count);
        if (count == 0) {
            head = 0;
        }
    }

    /** Releases everything waiting (the channel closed). */
    void releaseAll() {
        releaseOldest(count);
    }

    private void grow() {
        int n = contents.length;
        ByteBuf[] c = new ByteBuf[n * 2];
        InetSocketAddress[] r = new InetSocketAddress[n * 2];
        long[] a = new long[n * 2];
        int[] l = new int[n * 2];
        for (int k = 0; k < count; k++) {
            int i = (head + k) & (n - 1);
            c[k] = contents[i];
            r[k] = recipients[i];
            a[k] = addresses[i];
            l[k] = lengths[i];
        }
        contents = c;
        recipients = r;
        addresses = a;
        lengths = l;
        head = 0;
    }
}
