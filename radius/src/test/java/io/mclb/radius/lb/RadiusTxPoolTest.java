package io.mclb.radius.lb;

import io.mclb.radius.codec.RadiusSecret;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-loop pool of RADIUS transaction states: reuse, a clean state each time, never one still live. */
class RadiusTxPoolTest {
    private static final RadiusSecret NAS = RadiusSecret.of("nas-secret".getBytes(java.nio.charset.StandardCharsets.US_ASCII));

    @Test
    void aRetiredStateIsReusedAsIfNew() {
        RadiusTxPool pool = new RadiusTxPool();
        RadiusTx a = pool.take(NAS, 4, 1, 0x0a000001, 0x7f000001);
        a.inject = new byte[] {1};
        a.realSecret = NAS;
        a.sentId = 7;
        a.forgetFramedIp = true;
        a.purgeOnAnswer = true;
        a.nasAuth[3] = 9;
        a.upstreamAuth[15] = 9;
        pool.retired(a);

        RadiusTx b = pool.take(null, 1, -1, 0, 0);
        assertThat(b).isSameAs(a);
        assertThat(pool.created()).isEqualTo(1);
        assertThat(b.passThrough()).isTrue();
        assertThat(b.code).isEqualTo(1);
        assertThat(b.acctStatus).isEqualTo(-1);
        assertThat(b.framedIp).isZero();
        assertThat(b.nasIp).isZero();
        assertThat(b.inject).isNull();
        assertThat(b.realSecret).isNull();
        assertThat(b.sentTo).isNull();
        assertThat(b.sentId).isEqualTo(-1);
        assertThat(b.forgetFramedIp).isFalse();
        assertThat(b.purgeOnAnswer).isFalse();
        assertThat(b.nasAuth).containsOnly(0);
        assertThat(b.upstreamAuth).containsOnly(0);
    }

    @Test
    void aStateRetiredTwiceIsHandedOutOnce() {
        RadiusTxPool pool = new RadiusTxPool();
        RadiusTx a = pool.take(NAS, 1, -1, 0, 0);
        pool.retired(a);
        pool.retired(a);
        assertThat(pool.free()).isEqualTo(1);
        RadiusTx b = pool.take(NAS, 1, -1, 0, 0);
        RadiusTx c = pool.take(NAS, 1, -1, 0, 0);
        assertThat(b).isSameAs(a);
        assertThat(c).as("a is live again: the second take is a new object").isNotSameAs(a);
    }

    /** Any order of takes and retirements (some retired twice before reuse): no take returns a live state. */
    @Test
    void noTakeReturnsAStateThatIsStillLive() {
        RadiusTxPool pool = new RadiusTxPool();
        SplittableRandom random = new SplittableRandom(15);
        Set<RadiusTx> live = Collections.newSetFromMap(new IdentityHashMap<>());
        List<RadiusTx> liveList = new ArrayList<>();
        List<RadiusTx> retired = new ArrayList<>();
        for (int step = 0; step < 100_000; step++) {
            int what = random.nextInt(10);
            if (what < 5 || liveList.isEmpty()) {
                RadiusTx tx = pool.take(NAS, 1, -1, 0, 0);
                assertThat(live.add(tx)).as("step %d: take returned a state still live", step).isTrue();
                liveList.add(tx);
            } else if (what < 9) {
                RadiusTx tx = liveList.remove(random.nextInt(liveList.size()));
                live.remove(tx);
                pool.retired(tx);
                retired.add(tx);
            } else if (!retired.isEmpty()) {
                RadiusTx again = retired.get(random.nextInt(retired.size()));
                if (!live.contains(again)) {
                    pool.retired(again); // retired twice before its reuse: must not be handed out twice
                }
            }
            if (retired.size() > 4096) {
                retired.subList(0, 2048).clear();
            }
        }
        assertThat(pool.free()).isLessThanOrEqualTo(RadiusTxPool.MAX_FREE);
        assertThat(pool.created()).as("states were reused").isLessThan(50_000);
    }
}
