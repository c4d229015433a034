package io.mclb.radius.lb;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.ConfigLine;
import io.mclb.config.ProbeConfig;
import io.mclb.farm.RealServer;
import io.mclb.probe.ProbeCheck;
import io.mclb.probe.ProbeContext;
import io.mclb.probe.UdpCheck;
import io.mclb.radius.codec.RadiusSecret;
import io.mclb.service.ProbeFactory;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ip slb probe NAME radius} with {@code status-server} (RFC 5997, the default) or
 * {@code access-request user U password 0|7 P}: one signed probe per interval to each real (its
 * port, or 1812), signed with the real's {@code mclb radius key}; an answer passes when
 * {@link ProbePackets#accepts} it (identifier, authenticators, expected code: an Access-Reject
 * still proves the AAA alive and our secret right). Defaults interval 10 s, faildetect 3, timeout 5 s.
 */
final class RadiusProbe implements ProbeFactory {
    static final String TYPE = "radius";
    static final int AUTH_PORT = 1812;

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Parsed parse(ConfigLine header, List<ConfigLine> lines) throws BadLine {
        String label = "probe " + header.get(3);
        Args.end(header.tokens(), 4, label);
        String user = null;
        RadiusSecret password = null;
        List<List<String>> stored = new ArrayList<>();
        for (ConfigLine c : lines) {
            List<String> t = c.tokens();
            switch (c.word(0)) {
                case "status-server" -> {
                    Args.end(t, 0, label);
                    user = null;
                    password = null;
                    stored.add(t);
                }
                case "access-request" -> {
                    if (!c.is(1, "user") || t.size() < 5 || !c.is(3, "password")) {
                        throw new BadLine(label + ": expected 'access-request user U password 0|7 P'");
                    }
                    user = t.get(2);
                    String clear = RadiusConfigSyntax.key(t, 3, label + " access-request password");
                    password = RadiusSecret.ofString(clear);
                    stored.add(Args.withType7Secret(t, 4, clear));
                }
                default -> throw new BadLine(label + ": unknown line '" + c.word(0)
                        + "', allowed interval S, faildetect N, timeout S, status-server, access-request user U password 0|7 P");
            }
        }
        return new Parsed(new ProbeSettings(user, password), stored);
    }

    @Override
    public ProbeCheck newCheck(ProbeConfig probe, RealServer real, ProbeContext ctx) {
        RadiusSecret secret = RadiusSettings.realSecret(real.config());
        InetSocketAddress target = new InetSocketAddress(real.address(), real.port() != 0 ? real.port() : AUTH_PORT);
        if (secret == null) {
            return ProbeCheck.failing("real has no 'mclb radius key': the probe cannot be signed");
        }
        return new Check(probe.settings(ProbeSettings.class), secret, target, ctx);
    }

    /** One AAA's probes, on the probe's loop. */
    private static final class Check extends UdpCheck {
        private final ProbeSettings settings;
        private final RadiusSecret secret;
        private final ProbePackets packets = new ProbePackets();
        private ProbePackets.Probe sent;
        private int nextId;

        Check(ProbeSettings settings, RadiusSecret secret, InetSocketAddress target, ProbeContext ctx) {
            super(ctx, target);
            this.settings = settings;
            this.secret = secret;
        }

        @Override
        protected ByteBuf request(ByteBufAllocator alloc) {
            nextId = (nextId + 1) & 0xff;
            sent = packets.build(settings, secret, nextId);
            return Unpooled.wrappedBuffer(sent.wire());
        }

        @Override
        protected Verdict judge(ByteBuf answer) {
            // late, foreign or unverifiable: the timeout judges this run
            return sent != null && packets.accepts(sent, answer, secret) ? Verdict.PASS : Verdict.NOT_MINE;
        }
    }
}
