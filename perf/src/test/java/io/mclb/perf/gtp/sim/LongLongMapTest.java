package io.mclb.perf.gtp.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LongLongMapTest {
    @Test
    void behavesLikeAHashMapUnderRandomPutsAndRemoves() {
        LongLongMap map = new LongLongMap(4);
        Map<Long, Long> ref = new HashMap<>();
        Random r = new Random(3);
        for (int i = 0; i < 200_000; i++) {
            long key = r.nextInt(5_000) - 10; // includes 0 and negatives, many collisions in a small table
            if (r.nextInt(3) == 0) {
                Long old = ref.remove(key);
                assertThat(map.remove(key)).isEqualTo(old == null ? LongLongMap.MISSING : old);
            } else {
                long v = r.nextLong() & Long.MAX_VALUE;
                Long old = ref.put(key, v);
                assertThat(map.put(key, v)).isEqualTo(old == null ? LongLongMap.MISSING : old);
            }
            assertThat(map.size()).isEqualTo(ref.size());
        }
        for (long k = -10; k < 5_000; k++) {
            Long v = ref.get(k);
            assertThat(map.get(k)).isEqualTo(v == null ? LongLongMap.MISSING : v);
        }
        map.clear();
        assertThat(map.size()).isZero();
        assertThat(map.get(0)).isEqualTo(LongLongMap.MISSING);
    }
}
