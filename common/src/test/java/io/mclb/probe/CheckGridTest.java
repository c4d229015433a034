package io.mclb.probe;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CheckGridTest {
    private static final long SLOT_NS = CheckGrid.SLOT_MS * 1_000_000L;

    @Test
    void aCheckStartsNoEarlierThanAskedAndAtMostOneSlotLater() {
        for (long now : new long[] {0, 1, 7_654_321, SLOT_NS - 1, 123_456_789_012L, -5_000_001}) {
            for (long delayMs : new long[] {0, 1, 999, 10_000}) {
                long d = CheckGrid.delayNs(now, delayMs);
                assertThat(d).isBetween(delayMs * 1_000_000L, delayMs * 1_000_000L + SLOT_NS - 1);
                assertThat(Math.floorMod(now + d, SLOT_NS)).isZero();
            }
        }
    }

    @Test
    void checksAskedForTheSameSlotAtDifferentTimesStartTogether() {
        long a = 1_000_000_000L + 3_000_000;
        long b = a + 11_000_000; // asked 11 ms later for 11 ms less: the same slot
        assertThat(a + CheckGrid.delayNs(a, 500)).isEqualTo(b + CheckGrid.delayNs(b, 489));
    }
}
