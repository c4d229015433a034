package io.mclb.radius.lb;

import static io.mclb.radius.lb.RadiusProxyTest.accounting;
import static org.assertj.core.api.Assertions.assertThat;

import io.mclb.sticky.StickyChangeListener;
import io.mclb.sticky.StickyChangeListener.RemoveReason;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyRefresh;
import io.mclb.sticky.StickyValue;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.tinyradius.packet.AccountingRequest;

/**
 * Interim-Updates of a live session refresh its framed-IP entry (and owner entry) as the engine
 * refreshes any sticky entry ({@link StickyRefresh}): not while the stored expiry lags by less
 * than the slack, once when it lags by the slack. Each write is an update-locked Chronicle query and
 * a change streamed to the HA standby; before, every Interim-Update a second or more after the last
 * write rewrote both entries. The requests carry a Calling-Station-Id, so the engine's own sticky
 * key is that one and the framed-IP entries are written by the learner alone.
 */
class RadiusFramedIpInterimTest extends RadiusHarnessTest {
    private static final String FRAMED = "10.7.0.1";
    /** {@code idle radius framed-ip} default. */
    private static final int SUBSCRIBER_SECONDS = 7200;

    @Test
    void interimsWithinTheSlackDoNotRewriteTheEntryOnePastItDoesAndAStopRemovesIt() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", ""));
        AtomicInteger framedWrites = new AtomicInteger();
        AtomicInteger ownerWrites = new AtomicInteger();
        h.runtime.stickyTable().addListener(new StickyChangeListener() {
            @Override
            public void onPut(byte[] key, byte[] value, byte[] previous) {
                int kind = key[0] & 0xff;
                if (kind == RadiusStickyKinds.FRAMED_IP.code()) {
                    framedWrites.incrementAndGet();
                } else if (kind == RadiusStickyKinds.FRAMED_IP_NAS.code()) {
                    ownerWrites.incrementAndGet();
                }
            }

            @Override
            public void onRemove(byte[] key, byte[] value, RemoveReason reason) {
            }
        });
        DatagramSocket nas = h.nas();
        int id = 1;
        exchange(nas, AccountingRequest.ACCT_STATUS_TYPE_START, id++);
        assertThat(framedWrites).as("Start writes the framed-IP entry").hasValue(1);
        assertThat(ownerWrites).as("and its owner entry").hasValue(1);
        long startExpiresS = storedExpiresS();
        assertThat(startExpiresS).isEqualTo(h.clock.epochMillis() / 1000 + SUBSCRIBER_SECONDS);

        long slackS = StickyRefresh.slackSeconds(SUBSCRIBER_SECONDS);
        for (long atS : new long[] {1, 10, 30, slackS - 1}) {
            h.clock.advanceSeconds(atS - elapsedS(startExpiresS));
            exchange(nas, AccountingRequest.ACCT_STATUS_TYPE_INTERIM_UPDATE, id++);
            assertThat(framedWrites).as("framed-IP writes after an Interim-Update %d s after the Start", atS).hasValue(1);
            assertThat(ownerWrites).as("owner writes after an Interim-Update %d s after the Start", atS).hasValue(1);
            assertThat(storedExpiresS()).as("stored expiry %d s after the Start", atS).isEqualTo(startExpiresS);
        }

        h.clock.advanceSeconds(slackS + 1 - elapsedS(startExpiresS));
        exchange(nas, AccountingRequest.ACCT_STATUS_TYPE_INTERIM_UPDATE, id++);
        assertThat(framedWrites).as("one write once the entry lags by more than the slack").hasValue(2);
        assertThat(ownerWrites).as("the owner entry follows it").hasValue(2);
        assertThat(storedExpiresS()).isEqualTo(h.clock.epochMillis() / 1000 + SUBSCRIBER_SECONDS);

        h.clock.advanceSeconds(1);
        exchange(nas, AccountingRequest.ACCT_STATUS_TYPE_INTERIM_UPDATE, id++);
        assertThat(framedWrites).as("the next Interim-Update is within the new slack").hasValue(2);

        exchange(nas, AccountingRequest.ACCT_STATUS_TYPE_STOP, id);
        assertThat(h.framedIpEntry(FRAMED)).as("entry after the Stop").isNull();
    }

    /**
     * Interim-Updates without a Calling-Station-Id are keyed by their framed IP, so the engine, not the
     * learner, refreshes the framed-IP entry. Its owner entry must keep up: it used to keep the
     * Start's expiry and expire under a live session, and the per-NAS index rebuilt from owner entries
     * (restart, standby) then lost the address.
     */
    @Test
    void anEntryTheEngineRefreshesKeepsItsOwnerEntryAlive() throws Exception {
        DatagramSocket nas = sessionStarted();
        int id = 2;
        long startExpiresS = storedExpiresS();
        for (int round = 1; round <= 3; round++) {
            h.clock.advanceSeconds(SUBSCRIBER_SECONDS / 2);
            AccountingRequest r = accounting("u1", AccountingRequest.ACCT_STATUS_TYPE_INTERIM_UPDATE, null, FRAMED, id++);
            h.send(nas, RadiusHarness.encode(r, RadiusHarness.NAS_SECRET), h.vacct);
            h.receive(nas, r);
            long framedExpiresS = storedExpiresS();
            assertThat(framedExpiresS).as("round %d: the engine refreshed the framed-IP entry", round)
                    .isEqualTo(h.clock.epochMillis() / 1000 + SUBSCRIBER_SECONDS);
            StickyValue owner = ownerEntry();
            assertThat(owner).as("round %d: owner entry, %d s after the Start", round, round * SUBSCRIBER_SECONDS / 2)
                    .isNotNull();
            assertThat(owner.realId()).as("owner entry names the NAS").isEqualTo(0x7f000001L);
            assertThat(owner.expiresEpochSeconds()).as("round %d: owner expiry follows the framed-IP entry's", round)
                    .isEqualTo(framedExpiresS);
        }
        assertThat(h.clock.epochMillis() / 1000).as("past the Start's expiry").isGreaterThan(startExpiresS);
    }

    /**
     * The learner knows the owner entry's expiry from the table's change events instead of reading
     * it back: an owner entry removed under a live session (an operator's clear, a replicated
     * removal) or taken over by another NAS must still be written again by this NAS's next
     * Interim-Update, as a read would have found it gone.
     */
    @Test
    void anOwnerEntryRemovedOrTakenOverUnderALiveSessionIsWrittenAgainByTheNextInterim() throws Exception {
        DatagramSocket nas = sessionStarted();
        int id = 2;
        StickyKey ownerKey = ownerKey();
        assertThat(h.runtime.stickyTable().remove(ownerKey, RemoveReason.DELETED)).isTrue();
        assertThat(ownerEntry()).isNull();

        h.clock.advanceSeconds(5);
        exchange(nas, AccountingRequest.ACCT_STATUS_TYPE_INTERIM_UPDATE, id++);
        assertThat(ownerEntry()).as("owner entry after the Interim-Update that followed its removal").isNotNull();
        assertThat(ownerEntry().realId()).isEqualTo(0x7f000001L);
        assertThat(h.framedIps().size(0x7f000001)).isEqualTo(1);

        StickyValue other = new StickyValue().set(0x7f000099L, h.clock.epochMillis() / 1000, storedExpiresS());
        h.runtime.stickyTable().put(ownerKey, other); // another NAS learnt the address (as the standby would replicate it)
        assertThat(h.framedIps().size(0x7f000001)).as("the index follows the takeover").isZero();
        h.clock.advanceSeconds(5);
        exchange(nas, AccountingRequest.ACCT_STATUS_TYPE_INTERIM_UPDATE, id);
        assertThat(ownerEntry().realId()).as("this NAS's Interim-Update takes the address back").isEqualTo(0x7f000001L);
        assertThat(h.framedIps().size(0x7f000001)).isEqualTo(1);
        assertThat(h.framedIps().size(0x7f000099)).isZero();
    }

    /**
     * Within the slack an Interim-Update writes nothing only while the entry names the real that
     * answered it: an entry re-pointed meanwhile (replicated from the peer, or written by the engine
     * for a framed-IP keyed request) is written back in the same locked query that finds it.
     */
    @Test
    void anEntryNamingAnotherRealIsWrittenBackByTheNextInterimWithinTheSlack() throws Exception {
        DatagramSocket nas = sessionStarted();
        StickyKey k = framedKey();
        StickyValue v = new StickyValue();
        assertThat(h.runtime.stickyTable().get(k, v, h.clock.epochMillis())).isTrue();
        long answering = v.realId();
        long expiresS = v.expiresEpochSeconds();
        h.runtime.stickyTable().put(k, new StickyValue().set(answering + 1000, h.clock.epochMillis() / 1000, expiresS));

        h.clock.advanceSeconds(5);
        exchange(nas, AccountingRequest.ACCT_STATUS_TYPE_INTERIM_UPDATE, 2);
        assertThat(h.runtime.stickyTable().get(k, v, h.clock.epochMillis())).isTrue();
        assertThat(v.realId()).as("the framed-IP entry names the real that answered the Interim-Update")
                .isEqualTo(answering);
        assertThat(v.expiresEpochSeconds()).isEqualTo(h.clock.epochMillis() / 1000 + SUBSCRIBER_SECONDS);
    }

    /** A harness with the issue's configuration whose NAS's session has started (Accounting-Start, id 1). */
    private DatagramSocket sessionStarted() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", ""));
        DatagramSocket nas = h.nas();
        exchange(nas, AccountingRequest.ACCT_STATUS_TYPE_START, 1);
        return nas;
    }

    private static StickyKey framedKey() throws Exception {
        return new StickyKey().set(RadiusStickyKinds.FRAMED_IP, 2, InetAddress.getByName(FRAMED).getAddress());
    }

    private static StickyKey ownerKey() throws Exception {
        return new StickyKey().set(RadiusStickyKinds.FRAMED_IP_NAS, 2, InetAddress.getByName(FRAMED).getAddress());
    }

    private StickyValue ownerEntry() throws Exception {
        StickyValue v = new StickyValue();
        return h.runtime.stickyTable().get(ownerKey(), v, h.clock.epochMillis()) ? v : null;
    }

    /** Seconds since the Start, from the expiry the Start stored. */
    private long elapsedS(long startExpiresS) {
        return h.clock.epochMillis() / 1000 + SUBSCRIBER_SECONDS - startExpiresS;
    }

    private void exchange(DatagramSocket nas, int status, int id) throws Exception {
        AccountingRequest r = accounting("u1", status, "csid-1", FRAMED, id);
        h.send(nas, RadiusHarness.encode(r, RadiusHarness.NAS_SECRET), h.vacct);
        h.receive(nas, r); // the answer leaves mclb after its framed-IP learning
    }

    private long storedExpiresS() throws Exception {
        StickyValue v = new StickyValue();
        assertThat(h.runtime.stickyTable().get(framedKey(), v, h.clock.epochMillis())).as("framed-IP entry of %s", FRAMED).isTrue();
        return v.expiresEpochSeconds();
    }
}
