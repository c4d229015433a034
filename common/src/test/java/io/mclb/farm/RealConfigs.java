package io.mclb.farm;

import io.mclb.config.RealConfig;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/** Builds in-service real configs for tests; IOS defaults unless a field is given. */
public final class RealConfigs {
    private RealConfigs() {
    }

    public static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    public static RealConfig real(String ip, int weight) {
        return RealConfig.defaults(ip(ip), 0, null).withWeight(weight).withInService(true);
    }

    public static RealConfig real(String ip, int port, int weight, long maxConns, long maxClients, int rate,
                                  int numconns, int numclients, boolean inband, int retrySeconds) {
        return new RealConfig(ip(ip), port, weight, maxConns, maxClients, rate, RealConfig.DEFAULT_REASSIGN,
                numconns, numclients, inband, retrySeconds, true, List.of(), null);
    }
}
