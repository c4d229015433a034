package io.mclb.admin;

import io.mclb.net.Transports;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.socket.nio.NioServerDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The admin plane's Unix domain socket ({@code DATA_DIR/admin.sock}, mode 0600): what the CLI
 * uses on this host, with no token, because only mclb's own user (and root) can open it. With
 * epoll the peer's credentials are checked as well ({@code SO_PEERCRED}: the same uid as mclb, or
 * root), which also covers the moment between bind and chmod. A stale file from a process killed
 * with -9 is removed first: the data directory's lock already says no other mclb uses it.
 */
final class LocalSocket implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalSocket.class);
    /** sun_path holds 108 bytes with the terminating NUL. */
    private static final int MAX_PATH_BYTES = 107;

    private final Path path;
    private final Channel channel;

    private LocalSocket(Path path, Channel channel) {
        this.path = path;
        this.channel = channel;
    }

    /** Null (with a warning) when the path cannot be a socket name: the CLI then needs --admin. */
    static LocalSocket bind(EventLoopGroup io, Path path, ChannelInitializer<Channel> http, AdminRefusals refusals)
            throws IOException {
        Path abs = path.toAbsolutePath();
        if (abs.toString().getBytes(StandardCharsets.UTF_8).length > MAX_PATH_BYTES) {
            LOG.warn("no local admin socket: {} is longer than {} bytes (a Unix socket name's limit); mclb reload,"
                    + " failover and show need --admin HOST:PORT (and --token-file) instead", abs, MAX_PATH_BYTES);
            return null;
        }
        Files.createDirectories(abs.getParent());
        Files.deleteIfExists(abs);
        boolean epoll = Transports.nativeEpoll();
        int uid = epoll ? ownUid() : -1;
        ServerBootstrap b = new ServerBootstrap().group(io)
                .channel(epoll ? EpollServerDomainSocketChannel.class : NioServerDomainSocketChannel.class)
                .option(ChannelOption.AUTO_READ, false)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (ch instanceof EpollDomainSocketChannel d) {
                            ch.pipeline().addLast(new PeerCheck(d, uid, refusals));
                        }
                        ch.pipeline().addLast(http);
                    }
                });
        Channel ch;
        try {
            ch = b.bind(epoll ? new DomainSocketAddress(abs.toFile()) : UnixDomainSocketAddress.of(abs)).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding " + abs, e);
        } catch (Exception e) {
            throw new IOException("admin local socket " + abs + ": " + e.getMessage(), e);
        }
        Files.setPosixFilePermissions(abs, PosixFilePermissions.fromString("rw-------"));
        return new LocalSocket(abs, ch);
    }

    void start() {
        channel.config().setAutoRead(true);
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            LOG.debug("could not remove {}: {}", path, e.toString());
        }
    }

    /** The effective uid of this process: the owner of /proc/self. */
    private static int ownUid() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    }

    /** Closes a connection from another user (neither mclb's nor root). */
    private static final class PeerCheck extends ChannelInboundHandlerAdapter {
        private final EpollDomainSocketChannel channel;
        private final int uid;
        private final AdminRefusals refusals;

        PeerCheck(EpollDomainSocketChannel channel, int uid, AdminRefusals refusals) {
            this.channel = channel;
            this.uid = uid;
            this.refusals = refusals;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws IOException {
            int peer = channel.peerCredentials().uid();
            if (peer != uid && peer != 0) {
                refusals.refuse(AdminRefusals.Reason.LOCAL_PEER, null, "a local-socket connection from uid " + peer);
                ctx.close();
                return;
            }
            ctx.pipeline().remove(this);
            ctx.fireChannelActive();
        }
    }
}
