package io.mclb.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The baseline for {@link GtpOsmoInteropIT}, without mclb: sgsnemu against real osmo-ggsn
 * processes in a private namespace, v1 and v0, captured and decoded by tshark. Proves the peers,
 * the fixtures and the checker work on this machine, so that a failure of the through-mclb test
 * is mclb's. Also proves the malformed-packet check can fail.
 */
class OsmoGgsnDirectInteropIT {
    private static final Duration CREATE_TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    Path tmp;

    @Test
    void sgsnemuCreatesAndDeletesContextsOnRealGgsnsV1AndV0() throws Exception {
        try (Netns ns = Netns.create(tmp)) {
            ns.run(() -> {
                OsmoGgsn g1 = OsmoGgsn.start(ns, 1);
                OsmoGgsn g2 = OsmoGgsn.start(ns, 2);
                Tshark cap = Tshark.start(ns, "tshark", "udp port 2123 or udp port 3386");

                Sgsnemu.Options v1 = new Sgsnemu.Options("127.0.0.10", g1.address(), 262010000000001L, 1, 3);
                Sgsnemu.Result r1 = Sgsnemu.run(ns, "sgsnemu-v1", v1, CREATE_TIMEOUT);
                Sgsnemu.Options v0 = new Sgsnemu.Options("127.0.0.11", g2.address(), 262010000000002L, 0, 1);
                Sgsnemu.Result r0 = Sgsnemu.run(ns, "sgsnemu-v0", v0, CREATE_TIMEOUT);
                cap.stop();

                assertThat(r1.euas()).as("v1 addresses; sgsnemu log:%n%s", r1.log()).hasSize(3)
                        .allMatch(a -> a.startsWith(g1.euaPrefix()));
                assertThat(r1.deleteCauses()).containsOnly(128).hasSize(3);
                assertThat(r0.euas()).as("v0 addresses; sgsnemu log:%n%s", r0.log()).hasSize(1)
                        .allMatch(a -> a.startsWith(g2.euaPrefix()));
                assertThat(r0.deleteCauses()).containsExactly(128);

                List<Map<String, String>> creates = cap.rows("gtp.message == 0x10",
                        "ip.dst", "gtp.flags.version", "e212.imsi", "gtp.tid");
                assertThat(creates.stream().filter(r -> r.get("gtp.flags.version").equals("1"))
                        .map(r -> r.get("e212.imsi"))).containsExactlyInAnyOrderElementsOf(v1.imsis());
                // the v0 IMSI is inside the TID; the same decoding GtpOsmoInteropIT relies on
                assertThat(creates.stream().filter(r -> r.get("gtp.flags.version").equals("0"))
                        .map(r -> Tshark.imsiOfV0Tid(r.get("gtp.tid")))).containsExactly("262010000000002");
                List<Map<String, String>> accepted = cap.rows("gtp.message == 0x11 && gtp.cause == 128",
                        "ip.src", "gtp.flags.version");
                assertThat(accepted).extracting(r -> r.get("ip.src") + " v" + r.get("gtp.flags.version"))
                        .containsExactlyInAnyOrder("127.0.0.2 v1", "127.0.0.2 v1", "127.0.0.2 v1", "127.0.0.3 v0");
                assertThat(cap.problems("udp")).as("malformed frames").isEmpty();
            });
        }
    }

    @Test
    void malformedCheckFindsATruncatedCreate() throws Exception {
        try (Netns ns = Netns.create(tmp)) {
            ns.run(() -> {
                Tshark cap = Tshark.start(ns, "tshark", "udp port 2123");
                // header says 16 bytes follow, then an IMSI IE cut short: Wireshark flags it
                ns.exec(Duration.ofSeconds(20), "/usr/bin/python3", "-c",
                        "import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); "
                                + "s.sendto(bytes.fromhex('32100010000000000401000002f100'), ('127.0.0.2', 2123))")
                        .check("send truncated create");
                cap.stop();
                assertThat(cap.count("gtp.message == 0x10")).isEqualTo(1);
                assertThat(cap.problems("udp")).hasSize(1);
            });
        }
    }
}
