package io.mclb.probe;

import io.mclb.config.BadLine;
import io.mclb.config.ConfigLine;
import io.mclb.config.ProbeConfig;
import io.mclb.farm.RealServer;
import io.mclb.service.ProbeFactory;
import io.netty.channel.Channel;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * {@code ip slb probe NAME tcp} with {@code port N} (default: the real's port) and
 * {@code address IP [routed]}: a connection per interval; the handshake completing passes, a
 * refusal or silence fails. The connection is reset at once (nothing is sent). On epoll the
 * checks share the loop's {@link TcpProbeSockets}; other transports connect a Netty channel
 * ({@link TcpCheck}).
 */
public final class TcpProbe implements ProbeFactory {
    static final String TYPE = "tcp";

    /** @param port 0 = the real's port (or its virtual server's) */
    record Settings(InetAddress address, int port) {
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
        for (ConfigLine c : lines) {
            try {
                if (c.is(0, "port")) {
                    port = ProbeLines.port(c, label);
                } else if (c.is(0, "address")) {
                    address = ProbeLines.address(c, label);
                } else {
                    throw ProbeLines.unknown(label, TYPE, c, "port N, address IP [routed]");
                }
            } catch (BadLine e) {
                throw e.at(c.source());
            }
        }
        return Parsed.of(new Settings(address, port));
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
