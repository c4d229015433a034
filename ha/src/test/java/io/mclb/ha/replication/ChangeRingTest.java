package io.mclb.ha.replication;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ChangeRingTest {
    private static byte[] key(int i) {
        byte[] k = new byte[20];
        k[0] = (byte) (i >>> 24);
        k[1] = (byte) (i >>> 16);
        k[2] = (byte) (i >>> 8);
        k[3] = (byte) i;
        return k;
    }

    private static int id(byte[] data, int off) {
        return ((data[off] & 0xff) << 24) | ((data[off + 1] & 0xff) << 16) | ((data[off + 2] & 0xff) << 8)
                | (data[off + 3] & 0xff);
    }

    @Test
    void keepsOrderRefusesWhenFullAndReusesSlots() {
        ChangeRing ring = new ChangeRing(4);
        for (int i = 0; i < 4; i++) {
            assertThat(ring.offer(ChangeRing.PUT, key(i), new byte[16], i)).isTrue();
        }
        assertThat(ring.offer(ChangeRing.PUT, key(9), new byte[16], 9)).isFalse();
        assertThat(ring.size()).isEqualTo(4);
        List<Integer> seen = new ArrayList<>();
        assertThat(ring.drain((t, d, k, v, m) -> seen.add(id(d, k)), 3)).isEqualTo(3);
        assertThat(ring.offer(ChangeRing.REMOVE, key(4), null, 4)).isTrue();
        ring.drain((t, d, k, v, m) -> {
            seen.add(id(d, k));
            assertThat(m).isEqualTo(id(d, k));
        }, 10);
        assertThat(seen).containsExactly(0, 1, 2, 3, 4);
        assertThat(ring.size()).isZero();
    }

    @Test
    void concurrentProducersLoseNothingThatWasAccepted() throws Exception {
        ChangeRing ring = new ChangeRing(1 << 10);
        int producers = 3;
        int each = 50_000;
        long[] accepted = new long[producers];
        Thread[] threads = new Thread[producers];
        for (int p = 0; p < producers; p++) {
            int me = p;
            threads[p] = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    if (ring.offer(ChangeRing.PUT, key(me << 24 | i), new byte[16], i)) {
                        accepted[me]++;
                    }
                }
            });
            threads[p].start();
        }
        long[] drained = new long[producers];
        int[] last = {-1, -1, -1};
        boolean[] ordered = {true};
        ChangeRing.Visitor v = (t, d, k, val, m) -> {
            int id = id(d, k);
            int p = id >>> 24;
            int i = id & 0xffffff;
            ordered[0] &= i > last[p] && m == i;
            last[p] = i;
            drained[p]++;
        };
        while (threads[0].isAlive() || threads[1].isAlive() || threads[2].isAlive()) {
            ring.drain(v, 256);
        }
        for (Thread t : threads) {
            t.join();
        }
        ring.drain(v, Integer.MAX_VALUE);
        assertThat(drained).containsExactly(accepted);
        assertThat(ordered[0]).as("each producer's changes in order, timestamps intact").isTrue();
    }
}
