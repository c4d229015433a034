package io.mclb.config;

import java.net.InetAddress;
import java.util.List;
import java.util.Objects;

/**
 * {@code ip slb vserver NAME}.
 *
 * @param port         the port, 0 for an all-ports virtual server ({@code virtual IP udp 0 service gtp})
 * @param allPorts     for port 0: the ports the service listens on (GTP: 2123 and 3386); else empty
 * @param service      the {@code service} keyword, or null for plain UDP flow balancing
 * @param backupFarm   {@code serverfarm PRIMARY backup BACKUP [sticky]}, or null
 * @param backupSticky whether clients sent to the backup farm get sticky entries
 * @param idleSeconds  plain UDP flows are forgotten after this much silence ({@code idle S})
 * @param sticky       client-IP stickiness, or null
 * @param clients      {@code client} rules in file order; empty = every client
 * @param standbyGroup {@code inservice standby NAME}: serve only while that HA group is active here
 */
public record VirtualServerConfig(String name, InetAddress address, int port, List<Integer> allPorts, String service, String farm,
                                  String backupFarm, boolean backupSticky, int idleSeconds, StickyConfig sticky,
                                  List<ClientRule> clients, boolean inService, String standbyGroup,
                                  List<ExtensionLine> extensions, SourceRef source) {

    public static final int DEFAULT_IDLE_SECONDS = 30;

    public VirtualServerConfig {
        allPorts = List.copyOf(allPorts);
        clients = List.copyOf(clients);
        extensions = List.copyOf(extensions);
    }

    /** The ports bound: the configured one, or for an all-ports virtual server each of its service's. */
    public List<Integer> listenPorts() {
        return port != 0 ? List.of(port) : allPorts;
    }

    /** Same listening socket: a reload may keep the listener (and its transactions) only if true. */
    public boolean sameListener(VirtualServerConfig o) {
        return address.equals(o.address) && listenPorts().equals(o.listenPorts()) && Objects.equals(service, o.service);
    }

    /** Equality for reload diffs ignores where the virtual server sat in the file. */
    public boolean sameSettings(VirtualServerConfig o) {
        return name.equals(o.name) && sameListener(o) && Objects.equals(farm, o.farm)
                && Objects.equals(backupFarm, o.backupFarm) && backupSticky == o.backupSticky
                && idleSeconds == o.idleSeconds && Objects.equals(sticky, o.sticky) && clients.equals(o.clients)
                && inService == o.inService && Objects.equals(standbyGroup, o.standbyGroup)
                && RealConfig.sameLines(extensions, o.extensions);
    }

    /**
     * Whether a client address may use this virtual server. The most specific matching rule
     * decides (longest prefix), so {@code client 10.0.0.0 255.0.0.0} plus
     * {@code client 10.1.2.3 255.255.255.255 exclude} refuses exactly that host whatever the line
     * order. An address no rule matches is admitted only when there are no include rules.
     */
    public boolean admits(byte[] client) {
        return admits(client, 0);
    }

    /** {@link #admits(byte[])} on the data path: an IPv4 client's address is not copied out of it. */
    public boolean admits(InetAddress client) {
        if (clients.isEmpty()) {
            return true;
        }
        // Inet4Address.hashCode() is the address itself
        return client instanceof java.net.Inet4Address ? admits(null, client.hashCode()) : admits(client.getAddress(), 0);
    }

    /** {@code client} as bytes, or null for the IPv4 address {@code ipv4}. */
    private boolean admits(byte[] client, int ipv4) {
        if (clients.isEmpty()) {
            return true;
        }
        boolean anyInclude = false;
        ClientRule best = null;
        for (ClientRule r : clients) {
            anyInclude |= !r.exclude();
            boolean matches = client != null ? r.matches(client) : r.matchesIpv4(ipv4);
            if (matches && (best == null || r.prefixLength() > best.prefixLength())) {
                best = r;
            }
        }
        if (best != null) {
            return !best.exclude();
        }
        return !anyInclude;
    }

    /** The records of type {@code type} claimed in this block, in file order. */
    public <T> java.util.List<T> records(Class<T> type) {
        return ExtensionLine.records(extensions, type);
    }

    /** The first record of type {@code type} claimed in this block, or null. */
    public <T> T record(Class<T> type) {
        return ExtensionLine.record(extensions, type);
    }
}
