package io.mclb.radius.lb;

import static io.mclb.radius.lb.RadiusProxyTest.accounting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.DatagramSocket;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tinyradius.packet.AccountingRequest;

/**
 * An accounting virtual server whose only subscriber key is the Framed-IP-Address (found with
 * FreeRADIUS in RadiusFreeRadiusInteropIT): the Accounting-Stop must reach the AAA of the
 * session's Start, and must leave no framed-IP entry behind (the request's own stickiness must not
 * write back the entry the Stop removes).
 */
class RadiusFramedIpStopTest extends RadiusHarnessTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    @Test
    void stopFollowsTheStartAndRemovesTheFramedIpEntry() throws Exception {
        String cfg = RadiusHarness.issueConfig("", "", "");
        int acct = cfg.indexOf("ip slb vserver RADIUS-ACCT");
        cfg = cfg.substring(0, acct) + cfg.substring(acct).replace(" sticky radius calling-station-id group 2\n", "");
        h = new RadiusHarness(dataDir, cfg);
        DatagramSocket nas = h.nas();
        String[] aaaOf = new String[6];
        for (int s = 1; s <= 5; s++) {
            Map<String, Integer> before = RadiusHarness.counts(h.acct);
            AccountingRequest start = accounting("u" + s, AccountingRequest.ACCT_STATUS_TYPE_START, null, "10.6.0." + s, s);
            h.send(nas, RadiusHarness.encode(start, RadiusHarness.NAS_SECRET), h.vacct);
            h.receive(nas, start);
            await().atMost(WAIT).until(() -> RadiusHarness.grew(h.acct, before) != null);
            aaaOf[s] = RadiusHarness.grew(h.acct, before);
            assertThat(h.framedIpEntry("10.6.0." + s)).as("entry of 10.6.0.%d after Start", s).isNotNull();
        }
        for (int s = 1; s <= 5; s++) {
            Map<String, Integer> before = RadiusHarness.counts(h.acct);
            AccountingRequest stop = accounting("u" + s, AccountingRequest.ACCT_STATUS_TYPE_STOP, null, "10.6.0." + s, 10 + s);
            h.send(nas, RadiusHarness.encode(stop, RadiusHarness.NAS_SECRET), h.vacct);
            h.receive(nas, stop);
            await().atMost(WAIT).until(() -> RadiusHarness.grew(h.acct, before) != null);
            assertThat(RadiusHarness.grew(h.acct, before)).as("AAA of the Stop of 10.6.0.%d", s).isEqualTo(aaaOf[s]);
            assertThat(h.framedIpEntry("10.6.0." + s)).as("entry of 10.6.0.%d after Stop", s).isNull();
        }
    }
}
