package io.mclb.feedback.dfp;

import io.mclb.config.SourceRef;
import io.mclb.feedback.FeedbackLines.AgentLine;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The manager-side agent life cycle against a manual clock: states, time-out, retries, static weights back. */
class AgentSessionTest {
    private final ManualClock clock = new ManualClock();
    private final List<String> io = new ArrayList<>();

    private final AgentSession.Io outbox = new AgentSession.Io() {
        @Override
        public void connect(AgentSession s) {
            io.add("connect");
        }

        @Override
        public void disconnect(AgentSession s) {
            io.add("disconnect");
        }

        @Override
        public void restoreStatic(AgentSession s) {
            io.add("static");
        }

        @Override
        public void transition(AgentSession s, AgentState from, AgentState to, String why) {
            io.add(to.name());
        }
    };

    private AgentSession session(int timeout, int retries, int interval) throws Exception {
        return new AgentSession(new AgentLine(InetAddress.getByName("10.20.1.11"), 1111, timeout, retries, interval,
                SourceRef.NONE), outbox);
    }

    private long now() {
        return clock.nanoTime();
    }

    @Test
    void silencePastTheTimeoutClosesRestoresStaticAtOnceAndRetriesEveryInterval() throws Exception {
        AgentSession s = session(30, 0, 10);
        s.start(now());
        s.onConnected(now());
        assertThat(s.state()).isEqualTo(AgentState.OPEN);
        clock.advanceSeconds(20);
        s.onMessage(now(), true);
        clock.advanceSeconds(29);
        s.tick(now());
        assertThat(s.state()).as("29 s after the last report").isEqualTo(AgentState.OPEN);
        io.clear();
        clock.advanceSeconds(1);
        s.tick(now());
        assertThat(s.state()).isEqualTo(AgentState.TRYING);
        assertThat(io).as("closed and static weights back in the same step").containsExactly("disconnect", "static", "TRYING");
        io.clear();
        clock.advanceSeconds(9);
        s.tick(now());
        assertThat(io).as("before the retry interval").isEmpty();
        clock.advanceSeconds(1);
        s.tick(now());
        assertThat(io).containsExactly("CONNECTING", "connect");
        assertThat(s.reports()).isEqualTo(1);
    }

    @Test
    void aClosedConnectionRestoresStaticBeforeAnyRetryAndRetryCountEndsInFailed() throws Exception {
        AgentSession s = session(0, 2, 5);
        s.start(now());
        s.onConnected(now());
        io.clear();
        s.onClosed(now(), AgentState.TRYING, "closed");
        assertThat(io).containsExactly("static", "TRYING");
        for (int retry = 1; retry <= 2; retry++) {
            clock.advanceSeconds(5);
            s.tick(now());
            assertThat(s.state()).isEqualTo(AgentState.CONNECTING);
            s.onClosed(now(), AgentState.TRYING, "connect failed");
        }
        assertThat(s.state()).as("two retries failed, retry count 2").isEqualTo(AgentState.FAILED);
        io.clear();
        clock.advanceSeconds(3600);
        s.tick(now());
        assertThat(io).as("no attempt after the count ran out").isEmpty();
    }

    @Test
    void retryCountZeroRetriesForEverAndASuccessResetsTheCount() throws Exception {
        AgentSession s = session(0, 0, 1);
        s.start(now());
        for (int i = 0; i < 50; i++) {
            s.onClosed(now(), AgentState.TRYING, "connect failed");
            clock.advanceSeconds(1);
            s.tick(now());
            assertThat(s.state()).isEqualTo(AgentState.CONNECTING);
        }
        AgentSession counted = session(0, 2, 1);
        counted.start(now());
        counted.onClosed(now(), AgentState.TRYING, "connect failed");
        clock.advanceSeconds(1);
        counted.tick(now());
        counted.onClosed(now(), AgentState.TRYING, "connect failed");
        assertThat(counted.attempts()).isEqualTo(1);
        clock.advanceSeconds(1);
        counted.tick(now());
        counted.onConnected(now());
        assertThat(counted.attempts()).isZero();
    }

    @Test
    void badDataAndSecurityShowAsTheirMibStatesWhileWaitingToRetry() throws Exception {
        AgentSession s = session(0, 0, 5);
        s.start(now());
        s.onConnected(now());
        s.onClosed(now(), AgentState.SECURITY_ERROR, "refused: security");
        assertThat(s.state()).isEqualTo(AgentState.SECURITY_ERROR);
        assertThat(s.state().mib()).isEqualTo(6);
        clock.advanceSeconds(5);
        s.tick(now());
        s.onConnected(now());
        s.onClosed(now(), AgentState.FAILED, "refused: bad_tlv");
        assertThat(s.state()).isEqualTo(AgentState.FAILED);
        clock.advanceSeconds(5);
        s.tick(now());
        assertThat(s.state()).as("bad data is retried like a close").isEqualTo(AgentState.CONNECTING);
        io.clear();
        s.stop();
        assertThat(io).containsExactly("disconnect", "static", "NOT_OPEN");
    }
}
