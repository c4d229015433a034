package io.mclb.ha.group;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The interface tests' primitives on Linux: the line state and the received-packet count from sysfs
 * ({@code operstate}, {@code statistics/rx_packets}), neighbours from {@code /proc/net/arp}, and the
 * stimuli through iputils: {@code arping -c 1} (package iputils-arping) and {@code ping -b -c 1}
 * (iputils-ping; IPv6: to ff02::1). Java has no raw sockets; both tools need CAP_NET_RAW (mclb's
 * unit grants it). A missing tool is logged once: that test then only listens.
 *
 * <p>Called on the {@code mclb-ha} thread, only while hellos are missing: the tools are started and
 * never waited for.
 */
public final class LinuxInterfaceTestIo implements InterfaceTestIo {
    private static final Logger LOG = LoggerFactory.getLogger(GroupManager.class);
    private static final int ARP_FLAG_COMPLETE = 0x2;

    private final Path sys;
    private final Path procArp;
    private boolean arpingMissingLogged;
    private boolean pingMissingLogged;

    public LinuxInterfaceTestIo() {
        this(Path.of("/sys/class/net"), Path.of("/proc/net/arp"));
    }

    LinuxInterfaceTestIo(Path sys, Path procArp) {
        this.sys = sys;
        this.procArp = procArp;
    }

    @Override
    public boolean linkUp(String iface) {
        try {
            String s = Files.readString(sys.resolve(iface).resolve("operstate")).trim();
            return s.equals("up") || s.equals("unknown");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    @Override
    public long receivedPackets(String iface) {
        try {
            return Long.parseLong(Files.readString(sys.resolve(iface).resolve("statistics/rx_packets")).trim());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** {@code /proc/net/arp}: "IP address  HW type  Flags  HW address  Mask  Device", complete entries only. */
    @Override
    public List<InetAddress> arpCache(String iface, int max) {
        List<InetAddress> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(procArp)) {
                String[] f = line.trim().split("\\s+");
                if (out.size() >= max) {
                    break;
                }
                if (f.length >= 6 && f[5].equals(iface) && f[2].startsWith("0x")
                        && (Integer.parseInt(f[2].substring(2), 16) & ARP_FLAG_COMPLETE) != 0) {
                    out.add(InetAddress.getByName(f[0]));
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("reading {}: {}", procArp, e.toString());
        }
        return out;
    }

    @Override
    public void arp(String iface, InetAddress target) {
        if (target instanceof Inet6Address) {
            return; // no ARP in IPv6; the broadcast ping to all-nodes stands in
        }
        if (!launch(List.of("arping", "-c", "1", "-w", "1", "-I", iface, target.getHostAddress())) && !arpingMissingLogged) {
            arpingMissingLogged = true;
            LOG.warn("interface test: arping (iputils-arping) cannot run: the ARP test only listens");
        }
    }

    @Override
    public void broadcastPing(String iface, InetAddress broadcast) {
        List<String> cmd = broadcast instanceof Inet6Address
                ? List.of("ping", "-6", "-c", "1", "-W", "1", "-I", iface, "ff02::1")
                : List.of("ping", "-b", "-c", "1", "-W", "1", "-I", iface, broadcast.getHostAddress());
        if (!launch(cmd) && !pingMissingLogged) {
            pingMissingLogged = true;
            LOG.warn("interface test: ping (iputils-ping) cannot run: the broadcast ping test only listens");
        }
    }

    private static boolean launch(List<String> cmd) {
        try {
            new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
