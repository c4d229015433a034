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

    /** What {@link FramedIpIndex#add} tells the learner: new, or the owner entry's expiry the table's events reported. */
    @Test
    void addAnswersNewThenTheOwnerExpiryLastReported() {
        FramedIpIndex index = new FramedIpIndex();
        assertThat(index.add(NAS, 2, 0x0a000001)).isEqualTo(FramedIpIndex.NEW);
        assertThat(index.add(NAS, 2, 0x0a000001)).as("indexed, no owner write seen yet").isZero();
        index.owned(NAS, 2, 0x0a000001, 4_000_000_000L);
        assertThat(index.add(NAS, 2, 0x0a000001)).isEqualTo(4_000_000_000L);
        assertThat(index.ownerExpires(NAS, 2, 0x0a000001)).isEqualTo(4_000_000_000L);
        assertThat(index.ownerExpires(NAS + 1, 2, 0x0a000001)).as("another NAS").isEqualTo(FramedIpIndex.NEW);
        assertThat(index.ownerExpires(NAS, 3, 0x0a000001)).as("another group").isEqualTo(FramedIpIndex.NEW);
        index.owned(NAS, 3, 0x0a000002, 7);
        assertThat(index.size(NAS)).as("owned indexes what was not").isEqualTo(2);
        index.remove(NAS, 2, 0x0a000001);
        assertThat(index.add(NAS, 2, 0x0a000001)).isEqualTo(FramedIpIndex.NEW);
        assertThat(index.ownerExpires(NAS, 3, 0x0a000002)).isEqualTo(7);
    }

    /**
     * Random adds, owner reports and removals over pool-like addresses (runs of consecutive framed
     * IPs in a few groups, the highest group and address included), against a HashMap: the
     * open-addressed set's probing, growth and backward-shift removal keep every entry findable.
     */
    @Test
    void agreesWithAHashMapUnderRandomChurn() {
        FramedIpIndex index = new FramedIpIndex();
        java.util.Map<Long, Long> reference = new java.util.HashMap<>();
        java.util.SplittableRandom r = new java.util.SplittableRandom(42);
        int[] groups = {1, 2, 0xFFFF};
        int[] pools = {0x0a400000, 0x0a410000, 0xFFFFF000};
        for (int op = 0; op < 200_000; op++) {
            int group = groups[r.nextInt(groups.length)];
            int framed = pools[r.nextInt(pools.length)] + r.nextInt(op < 100_000 ? 3000 : 600);
            long k = FramedIpIndex.entry(group, framed);
            switch (r.nextInt(4)) {
                case 0 -> {
                    Long known = reference.putIfAbsent(k, 0L);
                    assertThat(index.add(NAS, group, framed)).isEqualTo(known == null ? FramedIpIndex.NEW : known);
                }
                case 1 -> {
                    long expires = 1 + r.nextInt(1 << 30);
                    reference.put(k, expires);
                    index.owned(NAS, group, framed, expires);
                }
                case 2 -> {
                    reference.remove(k);
                    index.remove(NAS, group, framed);
                }
                default -> assertThat(index.ownerExpires(NAS, group, framed))
                        .isEqualTo(reference.getOrDefault(k, FramedIpIndex.NEW));
            }
        }
        assertThat(index.size(NAS)).isEqualTo(reference.size());
        for (java.util.Map.Entry<Long, Long> e : reference.entrySet()) {
            int group = (int) (e.getKey() >>> 32);
            int framed = (int) (long) e.getKey();
            assertThat(index.ownerExpires(NAS, group, framed)).isEqualTo(e.getValue());
        }
        long[] drained = index.drain(NAS);
        Arrays.sort(drained);
        assertThat(drained).containsExactly(reference.keySet().stream().mapToLong(Long::longValue).sorted().toArray());
        assertThat(index.size(NAS)).isZero();
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
