package io.mclb.transaction;

import io.mclb.metrics.MetricNames;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.nio.file.Path;
import java.time.Duration;

import static io.mclb.transaction.RelayHarness.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code mclb max-transactions N}: a flood nobody answers costs at most N transactions per loop,
 * the rest is dropped as {@code transaction_table_full}; lingering answered transactions yield
 * their place instead of blocking new requests.
 */
class TransactionCapTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dataDir;
    private RelayHarness h;

    @AfterEach
    void stop() throws Exception {
        if (h != null) {
            h.close();
        }
    }

    private RelayHarness harness(int cap) throws Exception {
        // numconns 255: the flood's timeouts must not fail the real out before the last request
        return new RelayHarness(dataDir, 10_000, s -> { }, "mclb max-transactions " + cap + "\n", "", 1,
                "faildetect numconns 255");
    }

    @Test
    void aFloodNobodyAnswersStaysAtTheCapAndTheRestIsCountedAsTableFull() throws Exception {
        h = harness(50);
        h.reals.get(0).mode(FakeReal.Mode.SILENT);
        assertThat(h.drops("transaction_table_full")).as("exported at 0 from the start").isZero();
        DatagramSocket c = h.client();
        for (int id = 0; id < 200; id++) {
            h.send(c, request(id, "flood"));
        }
        await().atMost(WAIT).until(() -> h.drops("transaction_table_full") == 150);
        await().atMost(WAIT).until(() -> h.gauge(MetricNames.TRANSACTIONS_ACTIVE) == 50);
        assertThat(h.reals.get(0).count()).as("only what fits reaches the real").isEqualTo(50);
        assertThat(h.runtime.transactionBudget().fullestLoop()).isEqualTo(50);

        h.clock.advanceMillis(RelayHarness.REQUEST_TIMEOUT_MS + 1);
        await().atMost(WAIT).until(() -> h.gauge(MetricNames.TRANSACTIONS_ACTIVE) == 0);
        h.send(c, request(500, "after the timeouts"));
        await().atMost(WAIT).until(() -> h.reals.get(0).count() == 51);
        assertThat(h.drops("transaction_table_full")).isEqualTo(150);
    }

    @Test
    void answeredTransactionsLingeringAtTheCapMakeRoomForNewRequests() throws Exception {
        h = harness(10);
        DatagramSocket c = h.client();
        for (int id = 0; id < 30; id++) {
            h.send(c, request(id, "p" + id));
            assertThat(h.receive(c).id()).isEqualTo(id);
        }
        assertThat(h.drops("transaction_table_full")).isZero();
        await().atMost(WAIT).until(() -> h.gauge(MetricNames.TRANSACTIONS_ACTIVE) == 10);
    }
}
