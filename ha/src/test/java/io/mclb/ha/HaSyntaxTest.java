package io.mclb.ha;

import io.mclb.config.ConfigException;
import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.ha.group.GroupConfig;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The HA lines through the real parser: the node-A fragment, and the errors. */
class HaSyntaxTest {
    private static final String FRAGMENT = """
            track 1 interface veth-up line-protocol
            interface veth-a
             ip address 10.99.0.2 255.255.255.0
             standby version 2
             standby 100 ip 10.99.0.100
             standby 100 priority 110
             standby 100 preempt delay minimum 5
             standby 100 timers msec 100 msec 300
             standby 100 authentication md5 key-string 0 ha-secret
             standby 100 name SLB-HA
             standby 100 peer 10.99.0.3
             standby 100 track 1 decrement 20
            ip slb serverfarm FARM
             real 10.99.1.1
              inservice
            ip slb vserver GGSN-GN
             virtual 10.99.0.100 udp 2123
             serverfarm FARM
             inservice standby %s
            """;

    private static MclbConfig parse(String text) throws ConfigException {
        return ConfigParser.parse("ha.cfg", text, null, List.of(new HaSyntax()));
    }

    @Test
    void theNodeAFragmentIsAcceptedAndReadIntoOneGroup() throws Exception {
        MclbConfig c = parse(FRAGMENT.formatted("SLB-HA"));
        List<GroupConfig> groups = HaSyntax.groups(c);
        assertThat(groups).hasSize(1);
        GroupConfig g = groups.get(0);
        assertThat(g.iface()).isEqualTo("veth-a");
        assertThat(g.address().getHostAddress()).isEqualTo("10.99.0.2");
        assertThat(g.prefix()).isEqualTo(24);
        assertThat(g.version()).isEqualTo(2);
        assertThat(g.group()).isEqualTo(100);
        assertThat(g.vip().getHostAddress()).isEqualTo("10.99.0.100");
        assertThat(g.priority()).isEqualTo(110);
        assertThat(g.preempt()).isTrue();
        assertThat(g.preemptDelayMs()).isEqualTo(5000);
        assertThat(g.helloMs()).isEqualTo(100);
        assertThat(g.holdMs()).isEqualTo(300);
        assertThat(g.key()).isEqualTo("ha-secret".getBytes(StandardCharsets.UTF_8));
        assertThat(g.name()).isEqualTo("SLB-HA");
        assertThat(g.peers()).extracting(java.net.InetAddress::getHostAddress).containsExactly("10.99.0.3");
        assertThat(g.tracks()).containsExactly(new GroupConfig.Track(1, "veth-up", 20));
    }

    @Test
    void inserviceStandbyMustNameAConfiguredGroup() {
        assertThatThrownBy(() -> parse(FRAGMENT.formatted("NOPE")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("ha.cfg:16:")
                .hasMessageContaining("inservice standby NOPE: no 'standby G name NOPE' under any interface (defined: SLB-HA)");
    }

    @Test
    void badStandbyLinesAreReportedWithWhatIsAllowed() {
        assertThatThrownBy(() -> parse("interface eth0\n ip address 10.0.0.1 255.255.255.0\n standby 1 timers msec 100 msec 80\n"))
                .hasMessageContaining("ha.cfg:1:").hasMessageContaining("hold 80 ms must exceed hello 100 ms");
        assertThatThrownBy(() -> parse("interface eth0\n ip address 10.0.0.1 255.255.255.0\n standby 1 priority 300\n"))
                .hasMessageContaining("allowed 0..255");
        assertThatThrownBy(() -> parse("interface eth0\n ip address 10.0.0.1 255.255.255.0\n standby 1 track 9\n"))
                .hasMessageContaining("no 'track 9 interface IFACE line-protocol' line defines object 9");
        assertThatThrownBy(() -> parse("interface eth0\n standby 1 ip 10.0.0.9\n"))
                .hasMessageContaining("needs 'ip address A MASK'");
    }

    @Test
    void theKeyStringIsStoredAsType7AndReadsBackTheSame() throws Exception {
        MclbConfig c = parse(FRAGMENT.formatted("SLB-HA"));
        String running = io.mclb.config.ConfigWriter.write(c);
        assertThat(running).doesNotContain("ha-secret").contains("standby 100 authentication md5 key-string 7 ");
        MclbConfig again = parse(running);
        assertThat(HaSyntax.groups(again)).isEqualTo(HaSyntax.groups(c));
        assertThat(io.mclb.config.ConfigWriter.write(again)).isEqualTo(running);
    }

    @Test
    void anUnknownTrackObjectIsReportedAtItsStandbyLine() {
        assertThatThrownBy(() -> parse("interface eth0\n ip address 10.0.0.1/24\n standby 1 track 9 decrement 5\n"))
                .hasMessageContaining("ha.cfg:3: standby 1 track 9: no 'track 9 interface IFACE line-protocol'");
    }

    @Test
    void globalSettingsAreRead() throws Exception {
        MclbConfig c = parse("mclb ha port 1999\nmclb ha vip-control noop\n");
        assertThat(HaSyntax.port(c)).isEqualTo(1999);
        assertThat(HaSyntax.vipControl(c)).isEqualTo(HaLines.VipControl.NOOP);
        MclbConfig none = parse("");
        assertThat(HaSyntax.port(none)).isEqualTo(io.mclb.ha.group.GroupManager.DEFAULT_PORT);
        assertThat(HaSyntax.vipControl(none)).isEqualTo(HaLines.VipControl.LINUX);
        assertThatThrownBy(() -> parse("mclb ha port 70000\n"))
                .hasMessageContaining("ha.cfg:1: mclb ha port 70000: out of range, allowed 1..65535");
        assertThatThrownBy(() -> parse("mclb ha vip-control ip\n"))
                .hasMessageContaining("allowed 'mclb ha port N' or 'mclb ha vip-control linux|noop'");
    }

    @Test
    void anOrderlyStopHandsOverUnlessTheFileSaysNoHandover() throws Exception {
        assertThat(HaSyntax.stopHandover(parse(""))).isTrue();
        assertThat(HaSyntax.stopHandover(parse("mclb failover stop handover\n"))).isTrue();
        assertThat(HaSyntax.stopHandover(parse("mclb failover stop no-handover\n"))).isFalse();
        assertThatThrownBy(() -> parse("mclb failover stop later\n"))
                .hasMessageContaining("ha.cfg:1: 'mclb failover stop later': allowed 'mclb failover stop handover'")
                .hasMessageContaining("'mclb failover stop no-handover'");
    }

    @Test
    void valuesAreNamedWithWhatIsAllowed() {
        String head = "interface eth0\n ip address 10.0.0.1 255.255.255.0\n";
        assertThatThrownBy(() -> parse(head + " standby 1 preempt delay minimum 4000\n"))
                .hasMessageContaining("standby 1 preempt delay 4000: out of range, allowed 0..3600");
        assertThatThrownBy(() -> parse(head + " standby 1 peer host-b\n"))
                .hasMessageContaining("standby 1 peer host-b: not an IP address");
        assertThatThrownBy(() -> parse("interface eth0\n ip address 10.0.0.1 255.0.255.0\n"))
                .hasMessageContaining("ip address 10.0.0.1 255.0.255.0: not a contiguous network mask");
        assertThatThrownBy(() -> parse(head + " standby 300 ip 10.0.0.9\n"))
                .hasMessageContaining("needs 'standby version 2'");
    }
}
