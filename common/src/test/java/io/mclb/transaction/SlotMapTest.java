package io.mclb.transaction;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class SlotMapTest {
    @Test
    void putGetAndConditionalRemove() {
        SlotMap m = new SlotMap();
        assertThat(m.get(42)).isEqualTo(-1);
        assertThat(m.put(42, 0)).isEqualTo(-1);
        assertThat(m.put(0, 7)).isEqualTo(-1); // key 0 is an ordinary key
        assertThat(m.get(42)).isZero();
        assertThat(m.get(0)).isEqualTo(7);
        assertThat(m.put(42, 3)).isZero();
        assertThat(m.remove(42, 0)).as("another slot owns the key now").isFalse();
        assertThat(m.get(42)).isEqualTo(3);
        assertThat(m.remove(42, 3)).isTrue();
        assertThat(m.get(42)).isEqualTo(-1);
        assertThat(m.size()).isEqualTo(1);
    }

    @Test
    void collidingKeysSurviveRemovalsInAnyOrderAcrossTheArraysEnd() {
        SlotMap m = new SlotMap(16); // 32 cells: keys with equal low bits share one run
        long[] keys = new long[12];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = 30 + ((long) i << 5); // home cell 30 or 31 (the fold adds nothing), so runs wrap
            m.put(keys[i], i);
        }
        int[] order = {0, 5, 11, 1, 7, 3, 10, 2, 9, 4, 8, 6};
        for (int n = 0; n < order.length; n++) {
            assertThat(m.remove(keys[order[n]], order[n])).isTrue();
            for (int j = n + 1; j < order.length; j++) {
                assertThat(m.get(keys[order[j]])).as("key %d after %d removals", order[j], n + 1).isEqualTo(order[j]);
            }
        }
        assertThat(m.size()).isZero();
    }

    @Test
    void matchesAHashMapUnderRandomChurnWithoutGrowingPastItsLiveSize() {
        SlotMap m = new SlotMap();
        Map<Long, Integer> ref = new HashMap<>();
        SplittableRandom rnd = new SplittableRandom(7);
        for (int op = 0; op < 400_000; op++) {
            long k = io.mclb.sticky.Hashing.fmix64(rnd.nextInt(2_000));
            if (rnd.nextInt(3) == 0) {
                Integer had = ref.get(k);
                assertThat(m.remove(k, had == null ? 5 : had)).isEqualTo(had != null);
                ref.remove(k);
            } else {
                int slot = rnd.nextInt(1_000_000);
                Integer old = ref.put(k, slot);
                assertThat(m.put(k, slot)).isEqualTo(old == null ? -1 : old);
            }
        }
        assertThat(m.size()).isEqualTo(ref.size());
        ref.forEach((k, v) -> assertThat(m.get(k)).isEqualTo(v));
    }
}
