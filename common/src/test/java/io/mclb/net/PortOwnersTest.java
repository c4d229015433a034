package io.mclb.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.mclb.testing.Ports;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PortOwnersTest {
    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path tmp;

    @Test
    void kernelAddressFormIsTheHostOrderWord() throws Exception {
        // /proc/net/udp on a little-endian host writes 127.0.0.1 as 0100007F
        assertThat(PortOwners.hex(InetAddress.getByName("127.0.0.1")))
                .isEqualTo(java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN ? "0100007F" : "7F000001");
    }

    @Test
    void namesTheOtherProcessHoldingAUdpPortAndNothingForAFreeOne() throws Exception {
        int port = Ports.freeUdp("127.0.0.1");
        assertThat(PortOwners.udp(new InetSocketAddress("127.0.0.1", port))).isEmpty();
        // a child process that binds the port the way a second program would
        java.nio.file.Path src = tmp.resolve("Holder.java");
        java.nio.file.Files.writeString(src, "public class Holder { public static void main(String[] a) throws Exception {"
                + " var s = new java.net.DatagramSocket(new java.net.InetSocketAddress(\"127.0.0.1\", " + port + "));"
                + " System.out.println(\"bound\"); System.out.flush(); Thread.sleep(30000); } }");
        String javaBin = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(javaBin, src.toString()).redirectErrorStream(true).start();
        try {
            assertThat(new String(p.getInputStream().readNBytes(6))).isEqualTo("bound\n");
            var owner = PortOwners.udp(new InetSocketAddress("127.0.0.1", port));
            assertThat(owner).isPresent();
            assertThat(owner.get().pid()).isEqualTo(p.pid());
            assertThat(owner.get().mclb()).isFalse();
            assertThat(owner.get().toString()).isEqualTo(owner.get().program() + " pid " + p.pid());
        } finally {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void anMclbOwnerIsNamedWithItsConfiguration() {
        var o = PortOwners.Owner.of(42, List.of("/usr/bin/java", "-cp", "x", "io.mclb.Main", "run", "-c", "/etc/mclb/mclb.cfg"));
        assertThat(o).hasToString("mclb pid 42 (config /etc/mclb/mclb.cfg)");
        assertThat(PortOwners.Owner.of(7, List.of("/usr/sbin/nginx", "-g", "daemon off;"))).hasToString("nginx pid 7");
    }
}
