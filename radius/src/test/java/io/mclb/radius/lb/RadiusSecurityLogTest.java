package io.mclb.radius.lb;

import io.mclb.net.SecurityLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tinyradius.packet.AccountingRequest;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.mclb.radius.lb.RadiusProxyTest.accounting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A wrong NAS secret, an unknown NAS and an AAA answer that fails the real's secret are logged
 * once per source per minute, naming the virtual server and the source, besides their counters.
 */
class RadiusSecurityLogTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dataDir;
    private RadiusHarness h;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private AutoCloseable capture;

    @AfterEach
    void stop() throws Exception {
        if (capture != null) {
            capture.close();
        }
        if (h != null) {
            h.close();
        }
    }

    private List<String> linesWith(String... parts) {
        return lines.stream().filter(l -> List.of(parts).stream().allMatch(l::contains)).toList();
    }

    @Test
    void aWrongNasSecretAndAnUnknownNasAreLoggedOncePerSourcePerMinute() throws Exception {
        String cfg = RadiusHarness.issueConfig("", "", "").replace("client 127.0.0.0 255.0.0.0",
                "client 127.0.0.1 255.255.255.255");
        h = new RadiusHarness(dataDir, cfg);
        capture = SecurityLog.capture(lines::add);
        DatagramSocket nas = h.nas();
        for (int id = 1; id <= 3; id++) {
            AccountingRequest wrong = accounting("eve", AccountingRequest.ACCT_STATUS_TYPE_START, "49", "10.4.0.1", id);
            h.send(nas, RadiusHarness.encode(wrong, "not-the-secret"), h.vacct);
        }
        try (DatagramSocket stranger = new DatagramSocket(new InetSocketAddress("127.0.0.2", 0))) {
            for (int id = 1; id <= 3; id++) {
                AccountingRequest ok = accounting("eve", AccountingRequest.ACCT_STATUS_TYPE_START, "49", "10.4.0.1", id);
                h.send(stranger, RadiusHarness.encode(ok, RadiusHarness.NAS_SECRET), h.vacct);
            }
            await().atMost(WAIT).until(() -> h.drops("RADIUS-ACCT", "radius_bad_authenticator") == 3
                    && h.drops("RADIUS-ACCT", "radius_unknown_client") == 3);
            assertThat(linesWith("vserver RADIUS-ACCT", "shared secret", "from 127.0.0.1;")).hasSize(1);
            assertThat(linesWith("vserver RADIUS-ACCT", "no 'client' line", "from 127.0.0.2;")).hasSize(1);

            h.clock.advanceSeconds(60);
            h.send(stranger, RadiusHarness.encode(accounting("eve", AccountingRequest.ACCT_STATUS_TYPE_START, "49",
                    "10.4.0.1", 9), RadiusHarness.NAS_SECRET), h.vacct);
            await().atMost(WAIT).until(() -> linesWith("no 'client' line", "from 127.0.0.2;").size() == 2);
        }
        assertThat(linesWith("shared secret", "from 127.0.0.1;")).as("no new wrong-secret request").hasSize(1);
    }

    @Test
    void anAaaAnswerThatFailsTheRealsSecretIsLoggedWithTheAaasAddress() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", ""));
        capture = SecurityLog.capture(lines::add);
        h.acct.values().forEach(a -> a.mode = FakeAaa.Mode.BAD_AUTHENTICATOR);
        DatagramSocket nas = h.nas();
        for (int id = 1; id <= 3; id++) {
            h.send(nas, RadiusHarness.encode(accounting("carol" + id, AccountingRequest.ACCT_STATUS_TYPE_START,
                    "4933", "10.5.0." + id, id), RadiusHarness.NAS_SECRET), h.vacct);
        }
        await().atMost(WAIT).until(() -> h.drops("RADIUS-ACCT", "radius_bad_response_authenticator") >= 3);
        List<String> bad = linesWith("vserver RADIUS-ACCT", "AAA server's answer");
        assertThat(bad).isNotEmpty();
        assertThat(bad.stream().map(l -> l.substring(l.indexOf("(from "))).distinct().count())
                .as("one line per AAA address").isEqualTo(bad.size());
    }
}
