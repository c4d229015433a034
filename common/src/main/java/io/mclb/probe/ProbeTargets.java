package io.mclb.probe;

import io.mclb.config.VirtualServerConfig;
import io.mclb.farm.RealServer;
import io.mclb.service.ServiceContext;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/** Where a probe's checks of one real go: its address (or the probe's {@code address}) and port. */
final class ProbeTargets {
    private ProbeTargets() {
    }

    static InetAddress address(InetAddress override, RealServer real) {
        return override != null ? override : real.address();
    }

    /**
     * The port: the probe's own {@code port N}, else the real's, else (a real without a port takes
     * its virtual server's) the port of the first virtual server using the real's farm, else
     * {@code fallback}; 0 when there is none.
     */
    static int port(int probePort, RealServer real, ServiceContext ctx, int fallback) {
        if (probePort != 0) {
            return probePort;
        }
        if (real.port() != 0) {
            return real.port();
        }
        for (VirtualServerConfig v : ctx.config().vservers().values()) {
            if (real.farmName().equals(v.farm()) || real.farmName().equals(v.backupFarm())) {
                return v.port();
            }
        }
        return fallback;
    }

    /** {@code 10.0.0.1:80}, {@code [2001:db8::1]:80}. */
    static String label(InetSocketAddress a) {
        String h = a.getAddress().getHostAddress();
        return (a.getAddress() instanceof Inet6Address ? "[" + h + "]" : h) + ":" + a.getPort();
    }
}
