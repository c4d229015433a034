package io.mclb.probe;

import io.netty.channel.epoll.LinuxSocket;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * The source address the routing table gives a target, read by connecting a UDP socket (which
 * routes it and sends nothing): what the kernel will send a tcp check from. One per loop and
 * family, opened on first use. Confined to its loop.
 */
final class RouteSource {
    private final boolean v6;
    private LinuxSocket socket;

    RouteSource(boolean v6) {
        this.v6 = v6;
    }

    /** The source for {@code target}, or null when it has no route (unreachable) or the kernel cannot say. */
    InetAddress of(InetSocketAddress target) {
        try {
            if (socket == null) {
                socket = LinuxSocket.newSocketDgram(v6);
            }
            socket.connect(target);
            InetSocketAddress local = socket.localAddress();
            return local == null || local.getAddress().isAnyLocalAddress() ? null : local.getAddress();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // nothing left to release
            }
            socket = null;
        }
    }
}
