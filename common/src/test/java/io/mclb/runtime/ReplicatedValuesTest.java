package io.mclb.runtime;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReplicatedValuesTest {
    @Test
    void publishedValuesAreReplayedToALateSinkAndForwardedUntilDetached() {
        ReplicatedValues v = new ReplicatedValues();
        List<String> sent = new ArrayList<>();
        v.publish("gtp.recovery", new byte[] {7});
        v.attach((k, b) -> sent.add(k + "=" + b[0]));
        v.publish("gtp.recovery", new byte[] {9});
        v.detach();
        v.publish("gtp.recovery", new byte[] {11});
        assertThat(sent).containsExactly("gtp.recovery=7", "gtp.recovery=9");
        assertThat(v.published("gtp.recovery")).containsExactly(11);
    }

    @Test
    void deliveredValuesReachTheKeysReceiverOnlyAsCopies() {
        ReplicatedValues v = new ReplicatedValues();
        List<byte[]> got = new ArrayList<>();
        v.onReceived("gtp.recovery", got::add);
        byte[] in = {42};
        v.deliver("gtp.recovery", in);
        v.deliver("other", new byte[] {1});
        in[0] = 0;
        assertThat(got).hasSize(1);
        assertThat(got.get(0)).containsExactly(42);
    }
}
