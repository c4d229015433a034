package io.mclb.gtp.lb;

import io.mclb.farm.RealConfigs;
import io.mclb.farm.RealServer;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The inspector's pool of create states: reuse, reset, bound, and never one object twice. */
class GtpTxPoolTest {

    @Test
    void aRetiredCreateIsReusedWithNothingOfItsLastTransaction() {
        GtpTxPool pool = new GtpTxPool();
        GtpTx.Create a = pool.create(1, 5, null);
        a.opened(session(1));
        a.anchorSgsn(7, 8, new byte[] {10, 0, 0, 1});
        pool.retire(a);
        assertThat(a.opened()).as("a pooled state names no session, which may end meanwhile").isNull();

        GtpTx.Create b = pool.create(2, 6, null);
        assertThat(b).isSameAs(a);
        assertThat(b.imsiRaw()).isEqualTo(2);
        assertThat(b.nsapi()).isEqualTo(6);
        assertThat(b.opened()).isNull();
        assertThat(b.mclbTeid()).isZero();
        assertThat(b.sgsnTeid()).isZero();
        assertThat(b.sgsnAddress()).isNull();
        assertThat(pool.made()).isEqualTo(1);
    }

    @Test
    void theSameStateRetiredTwiceIsHandedToOneTransactionOnly() {
        GtpTxPool pool = new GtpTxPool();
        GtpTx.Create a = pool.create(1, 5, null);
        pool.retire(a);
        pool.retire(a);
        GtpTx.Create first = pool.create(2, 5, null);
        GtpTx.Create second = pool.create(3, 5, null);
        assertThat(second).isNotSameAs(first);
        assertThat(first.imsiRaw()).isEqualTo(2);
        assertThat(pool.refusedTwice()).isEqualTo(1);
    }

    @Test
    void sessionsFollowUpStatesAreNeverPooled() {
        GtpTxPool pool = new GtpTxPool();
        GtpSession s = session(9);
        pool.retire(s.follow(false));
        pool.retire(new GtpTx.FromGgsn(s, null));
        assertThat(pool.free()).isZero();
        assertThat(pool.create(1, 5, null)).isNotNull();
        assertThat(pool.made()).isEqualTo(1);
    }

    @Test
    void aDeletesStateIsReusedOnceRetiredAndForgetsItsSession() {
        GtpTxPool pool = new GtpTxPool();
        GtpSession s = session(9);
        GtpTx.End first = pool.end(s, 4);
        pool.retire(first);
        pool.retire(first);
        assertThat(first.session()).as("a retired state keeps no session alive").isNull();
        GtpTx.End again = pool.end(s, 6);
        assertThat(again).isSameAs(first);
        assertThat(again.generation()).isEqualTo(6);
        assertThat(pool.end(s, 8)).as("retired twice, kept once").isNotSameAs(first);
        assertThat(pool.refusedTwice()).isEqualTo(1);
        assertThat(pool.made()).isEqualTo(2);
    }

    @Test
    void thePoolKeepsAtMostItsBound() {
        GtpTxPool pool = new GtpTxPool();
        for (int i = 0; i < GtpTxPool.MAX_FREE + 10; i++) {
            pool.retire(new GtpTx.Create(i, 5));
        }
        assertThat(pool.free()).isEqualTo(GtpTxPool.MAX_FREE);
    }

    private static GtpSession session(long imsiRaw) {
        RealServer real = new RealServer("F", RealConfigs.real("127.0.0.2", 8), new ManualClock(), null);
        return new GtpSession(imsiRaw, 5, real, 0x1234, new byte[] {127, 0, 0, 2}, 0, 1_000_000_000L);
    }
}
