package io.mclb.config;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code client} rules on the data path ({@link VirtualServerConfig#admits(InetAddress)}: an IPv4
 * client compared as an int, not copied to bytes) decide exactly as the byte comparison does.
 */
class ClientRulesIpv4Test {

    private static VirtualServerConfig with(List<ClientRule> rules) throws Exception {
        return new VirtualServerConfig("V", InetAddress.getByName("127.0.0.100"), 9000, List.of(), null, "F", null,
                false, 30, null, rules, true, null, List.of(), null);
    }

    private static ClientRule rule(String address, int prefix, boolean exclude) throws Exception {
        return new ClientRule(InetAddress.getByName(address), prefix, exclude);
    }

    @Test
    void theMostSpecificRuleDecidesAsWithBytes() throws Exception {
        VirtualServerConfig v = with(List.of(rule("10.0.0.0", 8, false), rule("10.1.2.3", 32, true),
                rule("10.1.2.0", 31, false), rule("192.168.128.0", 17, false), rule("2001:db8::", 32, false)));
        assertThat(v.admits(InetAddress.getByName("10.9.9.9"))).isTrue();
        assertThat(v.admits(InetAddress.getByName("10.1.2.3"))).isFalse();
        assertThat(v.admits(InetAddress.getByName("10.1.2.1"))).isTrue();
        assertThat(v.admits(InetAddress.getByName("11.0.0.1"))).isFalse();
        assertThat(v.admits(InetAddress.getByName("192.168.200.1"))).isTrue();
        assertThat(v.admits(InetAddress.getByName("192.168.127.255"))).isFalse();
        assertThat(v.admits(InetAddress.getByName("2001:db8::1"))).isTrue();
        assertThat(v.admits(InetAddress.getByName("2001:db9::1"))).isFalse();

        SplittableRandom random = new SplittableRandom(15);
        VirtualServerConfig any = with(List.of(rule("0.0.0.0", 0, false), rule("172.16.0.0", 12, true)));
        for (int i = 0; i < 10_000; i++) {
            byte[] b = new byte[4];
            random.nextBytes(b);
            b[0] = (byte) (random.nextBoolean() ? 10 : b[0]);
            InetAddress a = InetAddress.getByAddress(b);
            assertThat(v.admits(a)).as("%s", a).isEqualTo(v.admits(b));
            assertThat(any.admits(a)).as("%s", a).isEqualTo(any.admits(b));
        }
    }

    @Test
    void noRulesAdmitEveryone() throws Exception {
        assertThat(with(List.of()).admits(InetAddress.getByName("203.0.113.1"))).isTrue();
        assertThat(with(List.of(rule("10.0.0.0", 8, true))).admits(InetAddress.getByName("203.0.113.1")))
                .as("only exclude rules: the rest is admitted").isTrue();
    }
}
