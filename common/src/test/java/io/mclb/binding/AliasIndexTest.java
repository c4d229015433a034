package io.mclb.binding;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

class AliasIndexTest {
    private static final AliasIndex.Holder NOBODY = (value, alias) -> false;

    @Test
    void putGetRemoveAndAConditionalRemoveThatLeavesAnotherValue() {
        AliasIndex ix = new AliasIndex(NOBODY);
        assertThat(ix.get(0x1234)).isEqualTo(AliasIndex.MISSING);
        assertThat(ix.put(0x1234, 7)).isEqualTo(AliasIndex.MISSING);
        assertThat(ix.get(0x1234)).isEqualTo(7);
        assertThat(ix.put(0x1234, 8)).as("last writer wins, the one replaced returned").isEqualTo(7);
        assertThat(ix.remove(0x1234, 7)).as("another value's entry stays").isFalse();
        assertThat(ix.get(0x1234)).isEqualTo(8);
        assertThat(ix.remove(0x1234, 8)).isTrue();
        assertThat(ix.get(0x1234)).isEqualTo(AliasIndex.MISSING);
        assertThat(ix.remove(0x1234, 8)).isFalse();
        assertThat(ix.size()).isZero();
    }

    @Test
    void anEntryItsHolderStillHoldsIsNotRemoved() {
        long[] held = {0};
        AliasIndex ix = new AliasIndex((value, alias) -> alias == held[0]);
        ix.put(0x10, 3);
        held[0] = 0x10;
        assertThat(ix.remove(0x10, 3)).isFalse();
        assertThat(ix.get(0x10)).isEqualTo(3);
        held[0] = 0;
        assertThat(ix.remove(0x10, 3)).isTrue();
    }

    @Test
    void growsPastItsInitialSlotsAndKeepsEveryEntry() {
        AliasIndex ix = new AliasIndex(NOBODY);
        int initial = ix.capacity();
        assertThat(initial).isEqualTo(AliasIndex.SEGMENTS * AliasIndex.INITIAL_SLOTS);
        int n = 100_000;
        for (int i = 1; i <= n; i++) {
            ix.put(i, 10L * i);
        }
        assertThat(ix.size()).isEqualTo(n);
        assertThat(ix.capacity()).isGreaterThan(n).isLessThanOrEqualTo(8 * n);
        for (int i = 1; i <= n; i++) {
            assertThat(ix.get(i)).isEqualTo(10L * i);
        }
        assertThat(ix.get(n + 1)).isEqualTo(AliasIndex.MISSING);
    }

    @Test
    void aFullSegmentStillAnswersAMissWithoutLoopingAndTakesMoreAfterGrowing() {
        // far more keys than one segment's first slots: every segment fills to its load bound and grows
        AliasIndex ix = new AliasIndex(NOBODY);
        for (int i = 1; i <= AliasIndex.SEGMENTS * AliasIndex.INITIAL_SLOTS; i++) {
            ix.put(i, i);
            assertThat(ix.get(-i)).isEqualTo(AliasIndex.MISSING);
        }
        assertThat(ix.size()).isEqualTo(AliasIndex.SEGMENTS * AliasIndex.INITIAL_SLOTS);
    }

    @Test
    void churnOfNewKeysReusesTheSlotsOfRemovedOnes() {
        // a renewal's pattern: a population of a fixed size whose keys are replaced by new ones forever
        AliasIndex ix = new AliasIndex(NOBODY);
        int population = 10_000;
        long[] live = new long[population];
        for (int i = 0; i < population; i++) {
            live[i] = i + 1;
            ix.put(live[i], i + 1);
        }
        int grown = ix.capacity();
        long next = population + 1;
        for (int round = 0; round < 50; round++) {
            for (int i = 0; i < population; i++) {
                assertThat(ix.remove(live[i], i + 1)).isTrue();
                live[i] = next++;
                ix.put(live[i], i + 1);
            }
        }
        assertThat(ix.size()).isEqualTo(population);
        assertThat(ix.capacity()).as("half a million new keys, no growth").isEqualTo(grown);
        for (int i = 0; i < population; i++) {
            assertThat(ix.get(live[i])).isEqualTo(i + 1);
        }
    }

    @Test
    void randomPutsAndRemovesAgreeWithAMap() {
        // a small key space in a few segments' worth of slots: long probe runs, many backward shifts
        AliasIndex ix = new AliasIndex(NOBODY);
        Map<Long, Long> model = new HashMap<>();
        SplittableRandom r = new SplittableRandom(15);
        for (int op = 0; op < 300_000; op++) {
            long key = 1 + r.nextInt(3_000);
            long value = 1 + r.nextInt(4);
            if (r.nextInt(3) == 0) {
                Long was = model.put(key, value);
                assertThat(ix.put(key, value)).isEqualTo(was == null ? AliasIndex.MISSING : was);
            } else {
                boolean removes = model.remove(key, value);
                assertThat(ix.remove(key, value)).isEqualTo(removes);
            }
            if (op % 10_000 == 0) {
                for (long k = 1; k <= 3_000; k++) {
                    assertThat(ix.get(k)).isEqualTo(model.getOrDefault(k, AliasIndex.MISSING));
                }
            }
        }
        assertThat(ix.size()).isEqualTo(model.size());
    }

    @Test
    void readersNeverMissAStableEntryNorSeeAWrongValueWhileWritersChurnAndGrow() throws Exception {
        AliasIndex ix = new AliasIndex(NOBODY);
        int stable = 2_000;
        // stable keys are odd, churned keys even; a key's only value is key * 3, so any other is wrong
        for (long k = 1; k < 2L * stable; k += 2) {
            ix.put(k, k * 3);
        }
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            Future<?>[] writers = new Future<?>[2];
            for (int w = 0; w < writers.length; w++) {
                long first = 2L + 2L * w; // two writers on disjoint even keys, sharing segments
                writers[w] = pool.submit(() -> {
                    go.await();
                    long[] live = new long[5_000];
                    long next = first;
                    for (int round = 0; round < 40; round++) {
                        for (int i = 0; i < live.length; i++) {
                            if (live[i] != 0) {
                                ix.remove(live[i], live[i] * 3);
                            }
                            live[i] = next;
                            next += 4;
                            ix.put(live[i], live[i] * 3);
                        }
                    }
                    return null;
                });
            }
            Future<?>[] readers = new Future<?>[2];
            for (int t = 0; t < readers.length; t++) {
                int seed = t;
                readers[t] = pool.submit(() -> {
                    go.await();
                    SplittableRandom r = new SplittableRandom(seed);
                    long reads = 0;
                    while (!stop.get()) {
                        long odd = 1 + 2L * r.nextInt(stable);
                        assertThat(ix.get(odd)).as("stable alias %d", odd).isEqualTo(odd * 3);
                        long even = 2 + 2L * r.nextInt(400_000);
                        long v = ix.get(even);
                        assertThat(v == AliasIndex.MISSING || v == even * 3).as("churned alias %d -> %d", even, v).isTrue();
                        reads++;
                    }
                    return reads;
                });
            }
            go.countDown();
            for (Future<?> w : writers) {
                w.get(120, TimeUnit.SECONDS);
            }
            stop.set(true);
            for (Future<?> rd : readers) {
                assertThat((Long) rd.get(30, TimeUnit.SECONDS)).isPositive();
            }
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
        assertThat(ix.size()).isEqualTo(stable + 2 * 5_000);
    }
}
