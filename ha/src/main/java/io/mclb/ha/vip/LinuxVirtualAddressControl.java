package io.mclb.ha.vip;

import io.mclb.net.SystemCommand;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Moves a virtual address with iproute2 (needs CAP_NET_ADMIN; mclb runs as root or with that
 * capability):
 * <ul>
 * <li>acquire: {@code ip addr replace VIP/PREFIX dev IFACE} (replace: idempotent), then for IPv4
 *     {@code arping -U -c 2 -I IFACE VIP} (Debian package iputils-arping) in the background, so
 *     neighbours move their ARP entry to this node at once. Without arping (Java has no raw
 *     sockets) neighbours learn the new owner when their ARP entry next expires or they
 *     re-resolve; this is logged once at the first takeover. For IPv6 the kernel itself sends
 *     unsolicited neighbour advertisements for a new address when {@code ndisc_notify} is set on the
 *     interface, so acquire sets {@code /proc/sys/net/ipv6/conf/IFACE/ndisc_notify} to 1 (no tool
 *     needed: Debian 12 has no ndisend by default).</li>
 * <li>release: {@code ip addr del VIP/PREFIX dev IFACE} ("Cannot assign requested address" means it
 *     was not there: success).</li>
 * </ul>
 */
public final class LinuxVirtualAddressControl implements VirtualAddressControl {
    private static final Logger LOG = LoggerFactory.getLogger(LinuxVirtualAddressControl.class);

    private final String ip;
    private final String arping;
    private boolean warnedNoArping;

    public LinuxVirtualAddressControl() {
        this(SystemCommand.find("ip"), SystemCommand.find("arping"));
    }

    /** @param ip path of the ip tool; @param arping path of arping, or null when absent */
    LinuxVirtualAddressControl(String ip, String arping) {
        this.ip = ip == null ? "ip" : ip;
        this.arping = arping;
    }

    @Override
    public boolean acquire(String iface, InetAddress vip, int prefix) {
        String a = vip.getHostAddress() + "/" + prefix;
        if (!SystemCommand.run(List.of(ip, "addr", "replace", a, "dev", iface), null, LOG)) {
            return false;
        }
        if (vip instanceof Inet4Address) {
            announce4(iface, vip);
        } else {
            try {
                Files.writeString(Path.of("/proc/sys/net/ipv6/conf", iface, "ndisc_notify"), "1");
            } catch (IOException | RuntimeException e) {
                LOG.warn("cannot enable unsolicited neighbour advertisements on {}: {}", iface, e.toString());
            }
        }
        LOG.info("virtual address {} added to {}", a, iface);
        return true;
    }

    @Override
    public boolean release(String iface, InetAddress vip, int prefix) {
        String a = vip.getHostAddress() + "/" + prefix;
        boolean ok = SystemCommand.run(List.of(ip, "addr", "del", a, "dev", iface), "Cannot assign requested address",
                LOG);
        if (ok) {
            LOG.info("virtual address {} not on {}", a, iface);
        }
        return ok;
    }

    private synchronized void announce4(String iface, InetAddress vip) {
        if (arping == null) {
            if (!warnedNoArping) {
                warnedNoArping = true;
                LOG.warn("arping not found (apt-get install iputils-arping): no gratuitous ARP for {}; neighbours "
                        + "learn the new owner when their ARP entries expire", vip.getHostAddress());
            }
            return;
        }
        try {
            // two unsolicited ARPs a second apart: not waited for, the takeover does not block on them
            Process p = new ProcessBuilder(arping, "-U", "-c", "2", "-I", iface, vip.getHostAddress())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            p.onExit().thenAccept(x -> {
                if (x.exitValue() != 0) {
                    LOG.warn("arping -U for {} on {} exited {}", vip.getHostAddress(), iface, x.exitValue());
                }
            });
        } catch (IOException e) {
            LOG.warn("arping for {} failed: {}", vip.getHostAddress(), e.toString());
        }
    }
}
