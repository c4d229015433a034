package io.mclb.probe;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.ConfigLine;
import io.mclb.config.ProbeConfig;
import io.mclb.farm.RealServer;
import io.mclb.service.ProbeFactory;
import io.netty.channel.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code ip slb probe NAME tcp} with {@code port N} (default: the real's port),
 * {@code address IP [routed]} and {@code handshake full|half-open}: one check per interval; the
 * target's SYN-ACK passes, a refusal or silence fails. Where the process has CAP_NET_RAW and the
 * epoll transport the check is half-open by default ({@link TcpHalfOpenCheck}: a SYN over a raw
 * socket, the host's kernel resets the SYN-ACK); {@code handshake full}, or a process without
 * raw sockets, connects instead and resets the connection at once (nothing is sent): on epoll
 * over the loop's {@link TcpProbeSockets}, on other transports a Netty channel ({@link TcpCheck}).
 */
public final class TcpProbe implements ProbeFactory {
    static final String TYPE = "tcp";
    private static final Logger LOG = LoggerFactory.getLogger(TcpProbe.class);
    private static final AtomicBoolean NOT_EPOLL_LOGGED = new AtomicBoolean();

    /**
     * @param port 0 = the real's port (or its virtual server's)
     * @param fullHandshake {@code handshake full}: always connect, never half-open
     */
    record Settings(InetAddress address, int port, boolean fullHandshake) {
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public BringUpClass bringUpClass() {
        return BringUpClass.TCP;
    }

    @Override
    public Parsed parse(ConfigLine header, List<ConfigLine> lines) throws BadLine {
        String label = ProbeLines.label(header);
        ProbeLines.endOfHeader(header, 4);
        InetAddress address = null;
        int port = 0;
        boolean full = false;
        for (ConfigLine c : lines) {
            try {
                if (c.is(0, "port")) {
                    port = ProbeLines.port(c, label);
                } else if (c.is(0, "address")) {
                    address = ProbeLines.address(c, label);
                } else if (c.is(0, "handshake")) {
                    full = handshake(c, label);
                } else {
                    throw ProbeLines.unknown(label, TYPE, c, "port N, address IP [routed], handshake full|half-open");
                }
            } catch (BadLine e) {
                throw e.at(c.source());
            }
        }
        return Parsed.of(new Settings(address, port, full));
    }

    /** {@code handshake full|half-open}: whether the checks must complete the connection. */
    private static boolean handshake(ConfigLine c, String label) throws BadLine {
        String what = label + " handshake";
        String v = Args.token(c.tokens(), 1, what, "full or half-open");
        if (!c.is(1, "full") && !c.is(1, "half-open")) {
            throw new BadLine(what + " " + v + ": unknown, allowed full, half-open");
        }
        Args.end(c.tokens(), 1, what + " " + v);
        return c.is(1, "full");
    }

    @Override
    public ProbeCheck newCheck(ProbeConfig probe, RealServer real, ProbeContext ctx) {
        Settings s = probe.settings(Settings.class);
        int port = ProbeTargets.port(s.port(), real, ctx.service(), 0);
        if (port == 0) {
            return ProbeCheck.failing("no port to connect to: the real has none and no virtual server uses farm "
                    + real.farmName() + "; set 'port N'");
        }
        InetSocketAddress target = new InetSocketAddress(ProbeTargets.address(s.address(), real), port);
        boolean v6 = target.getAddress() instanceof Inet6Address;
        boolean epoll = TcpProbeSockets.supports(ctx.loop());
        if (!epoll && !s.fullHandshake() && NOT_EPOLL_LOGGED.compareAndSet(false, true)) {
            LOG.info("tcp probes complete a handshake over Netty channels: half-open checks need the epoll transport"
                    + " (mclb transport epoll)");
        }
        if (!s.fullHandshake() && epoll && TcpRawSocket.available(v6)) {
            TcpRawSocket raw = TcpRawSocket.acquire(ctx.loop(), v6);
            if (raw.unavailable() == null) {
                return new TcpHalfOpenCheck(target, raw);
            }
            raw.release();
        }
        if (TcpProbeSockets.supports(ctx.loop())) {
            return new TcpConnectCheck(ctx, target);
        }
        return new TcpCheck(ctx, target, probe.timeoutSeconds() * 1000, true) {
            @Override
            protected void connected(Channel ch, ProbeResult result) {
                finish(ch);
                result.pass();
            }
        };
    }
}
