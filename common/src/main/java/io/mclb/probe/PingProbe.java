package io.mclb.probe;

import io.mclb.config.BadLine;
import io.mclb.config.ConfigLine;
import io.mclb.config.ProbeConfig;
import io.mclb.farm.RealServer;
import io.mclb.service.ProbeFactory;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * {@code ip slb probe NAME ping} with {@code address IP [routed]}: one ICMP (or ICMPv6) echo per
 * interval to each real; its reply passes. The echoes go through the loop's shared
 * {@link IcmpSocket}: an unprivileged ping socket where the kernel allows one, a raw socket
 * otherwise.
 */
public final class PingProbe implements ProbeFactory {
    static final String TYPE = "ping";

    /** The type's settings: the address to ping instead of the real's, or null. */
    record Settings(InetAddress address) {
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Parsed parse(ConfigLine header, List<ConfigLine> lines) throws BadLine {
        String label = ProbeLines.label(header);
        ProbeLines.endOfHeader(header, 4);
        InetAddress address = null;
        for (ConfigLine c : lines) {
            try {
                if (!c.is(0, "address")) {
                    throw ProbeLines.unknown(label, TYPE, c, "address IP [routed]");
                }
                address = ProbeLines.address(c, label);
            } catch (BadLine e) {
                throw e.at(c.source());
            }
        }
        return Parsed.of(new Settings(address));
    }

    @Override
    public ProbeCheck newCheck(ProbeConfig probe, RealServer real, ProbeContext ctx) {
        InetAddress a = ProbeTargets.address(probe.settings(Settings.class).address(), real);
        return new Check(ctx, new InetSocketAddress(a, 0));
    }

    /** One real's echoes, on the probe's loop. */
    private static final class Check implements ProbeCheck, IcmpSocket.Waiter {
        private final InetSocketAddress destination;
        private final IcmpSocket socket;
        private ProbeResult inFlight;
        private int seq = -1;
        private boolean closed;

        Check(ProbeContext ctx, InetSocketAddress destination) {
            this.destination = destination;
            this.socket = IcmpSocket.acquire(ctx.loop(), destination.getAddress() instanceof Inet6Address);
        }

        @Override
        public String targetLabel() {
            return destination.getAddress().getHostAddress() + " (icmp " + socket.mode() + ")";
        }

        @Override
        public InetSocketAddress destination() {
            return destination;
        }

        @Override
        public void run(ProbeResult result) {
            if (socket.unavailable() != null) {
                result.fail("ICMP unavailable: " + socket.unavailable());
                return;
            }
            socket.forget(seq, this);
            inFlight = result;
            seq = socket.send(this);
            if (seq < 0) {
                inFlight = null;
                result.fail("no free ICMP sequence number on this loop");
            }
        }

        @Override
        public void answered() {
            seq = -1;
            ProbeResult r = inFlight;
            inFlight = null;
            if (r != null) {
                r.pass();
            }
        }

        @Override
        public void unsent(String reason) {
            seq = -1;
            ProbeResult r = inFlight;
            inFlight = null;
            if (r != null) {
                r.fail("echo request not sent: " + reason);
            }
        }

        @Override
        public void cancel() {
            socket.forget(seq, this);
            seq = -1;
            inFlight = null;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                cancel();
                socket.release();
            }
        }
    }
}
