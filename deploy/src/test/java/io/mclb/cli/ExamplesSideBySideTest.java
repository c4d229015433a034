package io.mclb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.config.VirtualServerConfig;
import io.mclb.service.Modules;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The README tells operators to start the shipped examples side by side on one machine: that only
 * works while no two of them share an admin listener, a data directory or a virtual address and port.
 */
class ExamplesSideBySideTest {

    @Test
    void shippedExamplesShareNoAdminPortDataDirOrVirtualAddress() throws Exception {
        List<Path> examples;
        try (var files = Files.list(Path.of("examples"))) {
            examples = files.filter(f -> f.toString().endsWith(".cfg")).sorted().toList();
        }
        assertThat(examples).hasSizeGreaterThanOrEqualTo(6);
        Map<InetSocketAddress, Path> admins = new HashMap<>();
        Map<Path, Path> dataDirs = new HashMap<>();
        Map<InetSocketAddress, Path> listeners = new HashMap<>();
        for (Path f : examples) {
            MclbConfig c = ConfigParser.parse(f, Modules.load().grammar());
            assertThat(admins.put(c.global().admin(), f)).as("admin %s of %s", c.global().admin(), f).isNull();
            Path dir = c.global().dataDir().toAbsolutePath().normalize();
            assertThat(dataDirs.put(dir, f)).as("data-dir %s of %s", dir, f).isNull();
            for (VirtualServerConfig v : c.vservers().values()) {
                for (int port : v.listenPorts()) {
                    InetSocketAddress vip = new InetSocketAddress(v.address(), port);
                    assertThat(listeners.put(vip, f)).as("virtual %s of %s", vip, f).isNull();
                }
            }
        }
    }
}
