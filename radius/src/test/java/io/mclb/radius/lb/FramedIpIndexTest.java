package io.mclb.radius.lb;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-NAS index of learnt framed-IP entries, which every loop writes and the purge thread drains. */
class FramedIpIndexTest {
    private static final int NAS = 0x7f000001;

    @Test
    void entriesArePerNasAndADrainTakesThemAll() {
        FramedIpIndex index = new FramedIpIndex();
        index.add(NAS, 2, 0x0a000001);
        index.add(NAS, 2, 0x0a000001);
        index.add(NAS, 2, 0x0a000002);
        index.add(NAS, 3, 0x0a000001);
        index.add(NAS + 1, 2, 0x0a000009);
        index.remove(NAS, 2, 0x0a000002);
        assertThat(index.size(NAS)).isEqualTo(2);

        long[] drained = index.drain(NAS);
        Arrays.sort(drained);
        assertThat(drained).containsExactly(FramedIpIndex.entry(2, 0x0a000001), FramedIpIndex.entry(3, 0x0a000001));
        assertThat(index.size(NAS)).isZero();
        assertThat(index.drain(NAS)).isEmpty();
        assertThat(index.size(NAS + 1)).isEqualTo(1);
        assertThat(index.drain(NAS + 2)).isEmpty();

        index.add(NAS, 2, 0x0a000003); // the NAS's sessions after its restart
        assertThat(index.drain(NAS)).containsExactly(FramedIpIndex.entry(2, 0x0a000003));
    }

    /** Two loops learning while the purge thread drains: every entry is drained exactly once or still indexed. */
    @Test
    void concurrentLearningAndDrainsLoseNothing() throws Exception {
        FramedIpIndex index = new FramedIpIndex();
        int perThread = 20_000;
        AtomicBoolean done = new AtomicBoolean();
        Thread[] loops = new Thread[2];
        for (int t = 0; t < loops.length; t++) {
            int base = t * perThread;
            loops[t] = new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    index.add(NAS + (i & 3), 2, base + i);
                }
            });
        }
        long[] drained = {0};
        Thread purge = new Thread(() -> {
            while (!done.get()) {
                for (int n = 0; n < 4; n++) {
                    drained[0] += index.drain(NAS + n).length;
                }
            }
        });
        purge.start();
        for (Thread t : loops) {
            t.start();
        }
        for (Thread t : loops) {
            t.join();
        }
        done.set(true);
        purge.join();
        long left = 0;
        for (int n = 0; n < 4; n++) {
            left += index.size(NAS + n);
        }
        assertThat(drained[0] + left).isEqualTo(2L * perThread);
    }
}
