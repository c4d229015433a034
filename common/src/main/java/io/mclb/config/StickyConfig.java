package io.mclb.config;

/**
 * {@code sticky SECONDS [group N] [netmask MASK]}: client-IP stickiness. Virtual servers with
 * the same non-zero group share one table.
 *
 * @param group        0 = the virtual server's own table
 * @param prefixLength the netmask as a prefix length (32 for IPv4 hosts, 128 for IPv6)
 */
public record StickyConfig(int seconds, int group, int prefixLength) {
}
