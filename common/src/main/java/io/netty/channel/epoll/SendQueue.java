package io.netty.channel.epoll;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelPipeline;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The datagrams {@link MclbDatagramChannel#send} took and the kernel has not yet: a ring of
 * (content, recipient) pairs in two arrays, no object per datagram (Netty's outbound buffer adds an
 * {@code Entry} and a promise per write and takes them out again for sendmmsg). The ring starts
 * small and doubles up to {@link #MAX}: a socket that the kernel stops taking from (its send buffer
 * full for longer than the relay's burst) holds at most that many, and the caller drops and
 * counts the rest. Growth allocates; a steady state does not.
 *
 * <p>Owns the contents it holds (released when sent, failed or closed). Confined to the channel's
 * event loop.
 */
final class SendQueue {
    /** Datagrams waiting on one socket at most (a 4,096-deep burst at the relay's 64-slot read batches). */
    static final int MAX = 4096;
    private static final int INITIAL = 16;

    private ByteBuf[] contents = new ByteBuf[INITIAL];
    private InetSocketAddress[] recipients = new InetSocketAddress[INITIAL];
    /** Index of the oldest datagram; {@code count} follow it, wrapping at the array's length (a power of two). */
    private int head;
    private int count;

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
        count++;
        return true;
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
            if (!batch.add(vector, contents[i], recipients[i], ipv6Socket)) {
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
                sent = fill(vector, batch, ipv6Socket) == 0 ? -1 : vector.send(fd);
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

    /** Releases and forgets the {@code n} oldest (sent, or the one that failed). */
    void releaseOldest(int n) {
        int mask = contents.length - 1;
        for (int k = 0; k < n; k++) {
            contents[head].release();
            contents[head] = null;
            recipients[head] = null;
            head = (head + 1) & mask;
        }
        count -= n;
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
        for (int k = 0; k < count; k++) {
            c[k] = contents[(head + k) & (n - 1)];
            r[k] = recipients[(head + k) & (n - 1)];
        }
        contents = c;
        recipients = r;
        head = 0;
    }
}
