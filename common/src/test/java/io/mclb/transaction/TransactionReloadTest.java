package io.mclb.transaction;

import io.mclb.config.ConfigParser;
import io.mclb.config.ConfigWriter;
import io.mclb.config.MclbConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.mclb.transaction.RelayHarness.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A reload keeps the transactions in flight of a virtual server whose listener did not change. */
class TransactionReloadTest {
    @TempDir
    Path dataDir;
    private RelayHarness h;

    @AfterEach
    void stop() throws Exception {
        if (h != null) {
            h.close();
        }
    }

    @Test
    void aRequestInFlightAcrossAReloadIsAnsweredThroughTheSameRealAndUpstreamId() throws Exception {
        h = new RelayHarness(dataDir, 2, "reassign 4");
        h.reals.forEach(r -> r.mode(FakeReal.Mode.SILENT));
        DatagramSocket c = h.client();
        h.send(c, request(4242, "in-flight"));
        await().atMost(Duration.ofSeconds(10)).until(() -> h.reals.get(0).count() + h.reals.get(1).count() == 1);
        FakeReal first = h.reals.get(0).count() == 1 ? h.reals.get(0) : h.reals.get(1);
        int upstreamId = first.seen().get(0).id();
        assertThat(h.gauge("mclb.transactions.active")).isEqualTo(1.0);

        // change every real's weight and add a client rule; the listener stays
        String text = ConfigWriter.write(h.runtime.config()).replace("weight 1", "weight 2")
                .replace("\n serverfarm F\n", "\n serverfarm F\n client 127.0.0.0 255.0.0.0\n");
        MclbConfig next = ConfigParser.parse("test.cfg", text, dataDir, List.of(h.service));
        assertThat(h.runtime.reload(next)).isEmpty();
        assertThat(h.runtime.farms().get("F").reals()[0].config().weight()).isEqualTo(2);

        // the client retransmits after the reload; the real now answers
        h.reals.forEach(r -> r.mode(FakeReal.Mode.ANSWER));
        h.send(c, request(4242, "in-flight"));
        RelayHarness.Answer a = h.receive(c);
        assertThat(a.id()).isEqualTo(4242);
        assertThat(a.from()).isEqualTo(h.vip);
        assertThat(first.count()).isEqualTo(2);
        assertThat(first.seen().get(1).id()).as("same upstream id after the reload").isEqualTo(upstreamId);
        assertThat(h.counter("mclb.retransmissions")).isEqualTo(1.0);
    }
}
