package io.mclb.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.IllegalReferenceCountException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reused outbound envelopes over a real socket of the process's transport: every datagram arrives
 * with its own bytes at its own recipient, the channel's release after the write returns the
 * envelope, so thousands of datagrams need no more envelopes than one write batch holds.
 */
class DatagramEnvelopesTest {
    private final EventLoopGroup group = Transports.newGroup(1, "envelopes-test");

    @AfterEach
    void tearDown() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    @Test
    void datagramsSentThroughReusedEnvelopesArriveIntactAndEnvelopesComeBack() throws Exception {
        EventLoop loop = group.next();
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        Channel ch = UdpSockets.upstream(lo).group(loop).handler(new ChannelInboundHandlerAdapter())
                .bind(UdpSockets.ephemeral(lo)).sync().channel();
        int batches = 125;
        int batch = 16;
        Set<String> got = new HashSet<>();
        List<ByteBuf> sent = new ArrayList<>();
        try (DatagramSocket a = new DatagramSocket(new InetSocketAddress(lo, 0));
             DatagramSocket b = new DatagramSocket(new InetSocketAddress(lo, 0))) {
            a.setSoTimeout(5000);
            b.setSoTimeout(5000);
            DatagramEnvelopes envelopes = new DatagramEnvelopes(loop);
            for (int n = 0; n < batches; n++) {
                int first = n * batch;
                loop.submit(() -> {
                    for (int i = first; i < first + batch; i++) {
                        ByteBuf content = ch.alloc().directBuffer().writeBytes(("d" + i).getBytes(StandardCharsets.US_ASCII));
                        sent.add(content);
                        InetSocketAddress to = (InetSocketAddress) (i % 2 == 0 ? a : b).getLocalSocketAddress();
                        ch.write(envelopes.wrap(content, to), ch.voidPromise());
                    }
                    ch.flush();
                }).sync();
                for (int i = first; i < first + batch; i++) {
                    DatagramSocket at = i % 2 == 0 ? a : b;
                    java.net.DatagramPacket p = new java.net.DatagramPacket(new byte[64], 64);
                    at.receive(p);
                    String text = new String(p.getData(), 0, p.getLength(), StandardCharsets.US_ASCII);
                    int number = Integer.parseInt(text.substring(1));
                    assertThat(number % 2).as("%s reached the socket it was addressed to", text).isEqualTo(i % 2);
                    got.add(text);
                }
            }
            assertThat(got).hasSize(batches * batch);
            long created = loop.submit(envelopes::created).get();
            assertThat(created).as("envelopes created for %d datagrams", batches * batch).isLessThanOrEqualTo(batch);
            assertThat(loop.submit(envelopes::pooled).get()).isEqualTo((int) created);
            assertThat(sent).allSatisfy(c -> assertThat(c.refCnt()).as("released after the write").isZero());
        } finally {
            ch.close().sync();
        }
    }

    @Test
    void anEnvelopeIsOwnedOnceAndReleasedOffTheLoopIsNotPooled() throws Exception {
        EventLoop loop = group.next();
        DatagramEnvelopes envelopes = new DatagramEnvelopes(loop);
        InetSocketAddress to = new InetSocketAddress("127.0.0.1", 9);
        ByteBuf content = io.netty.buffer.Unpooled.directBuffer().writeByte(1);
        DatagramPacket p = loop.submit(() -> envelopes.wrap(content, to)).get();
        assertThat(p.content()).isSameAs(content);
        assertThat(p.recipient()).isEqualTo(to);
        assertThat(p.release()).isTrue(); // on this (test) thread: the content goes, the envelope is not pooled
        assertThat(content.refCnt()).isZero();
        assertThat(loop.submit(envelopes::pooled).get()).isZero();
        assertThatThrownBy(p::release).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(p::content).isInstanceOf(IllegalReferenceCountException.class);

        ByteBuf second = io.netty.buffer.Unpooled.directBuffer().writeByte(2);
        DatagramPacket q = loop.submit(() -> {
            DatagramPacket e = envelopes.wrap(second, to);
            e.retain();
            e.release();
            return e;
        }).get();
        assertThat(second.refCnt()).as("retain then release keeps one owner").isEqualTo(1);
        assertThat(loop.submit(() -> q.release()).get()).isTrue();
        assertThat(loop.submit(envelopes::pooled).get()).as("released on the loop: pooled").isEqualTo(1);
        ByteBuf third = io.netty.buffer.Unpooled.directBuffer().writeByte(3);
        assertThat(loop.submit(() -> envelopes.wrap(third, to)).get()).as("reused").isSameAs(q);
        assertThat(envelopes.created()).isEqualTo(2);
        third.release();
    }
}
