package io.mclb.gtp.mip;

import io.mclb.farm.RealServer;
import io.mclb.farm.ServerFarm;
import io.mclb.vserver.VserverSnapshot;
import io.netty.util.collection.IntObjectHashMap;

import java.net.Inet4Address;

/**
 * The Home Agent Director settings of one virtual server, resolved once per configuration
 * snapshot (never per datagram): the request timeout, the virtual address, and the farm members
 * by their IPv4 address (a registration naming a member's own address goes to that member).
 *
 * @param requestSeconds {@code idle ipmobile request S} (default 30)
 */
record MipVserverSettings(int requestSeconds, int vip, IntObjectHashMap<RealServer> members) {
    static final int DEFAULT_REQUEST_SECONDS = 30;

    static MipVserverSettings of(VserverSnapshot s) {
        MipLines.IdleRequest idle = s.config().record(MipLines.IdleRequest.class);
        IntObjectHashMap<RealServer> members = new IntObjectHashMap<>();
        add(members, s.farm());
        add(members, s.backup());
        return new MipVserverSettings(idle == null ? DEFAULT_REQUEST_SECONDS : idle.seconds(),
                ipv4(s.config().address()), members);
    }

    private static void add(IntObjectHashMap<RealServer> members, ServerFarm farm) {
        if (farm == null) {
            return;
        }
        for (RealServer r : farm.reals()) {
            if (r.address() instanceof Inet4Address) {
                members.putIfAbsent(ipv4(r.address()), r);
            }
        }
    }

    private static int ipv4(java.net.InetAddress a) {
        byte[] b = a.getAddress();
        return b.length != 4 ? 0 : ((b[0] & 0xFF) << 24) | ((b[1] & 0xFF) << 16) | ((b[2] & 0xFF) << 8) | (b[3] & 0xFF);
    }

    /** The farm member whose own address is {@code homeAgent}, or null (dynamic assignment, the VIP, unknown). */
    RealServer member(int homeAgent) {
        return homeAgent == 0 || homeAgent == -1 || homeAgent == vip ? null : members.get(homeAgent);
    }
}
