package io.mclb.feedback.dfp;

import io.mclb.feedback.FeedbackLines.AgentLine;

/**
 * The life of one configured DFP agent on the manager side, as a state machine with an injected
 * clock and an I/O outbox ({@link Io}); it owns no socket (the style of
 * {@code ha.group.StandbyGroup}). Every method runs on the DFP event loop.
 *
 * <pre>
 *  start ──► CONNECTING ──connected──► OPEN ──closed / silent past TIMEOUT──► TRYING ─┐
 *                │                      ├──inconsistent data──► FAILED ───────────────┤ RETRY-INTERVAL
 *                └──connect failed──► TRYING   └──bad/missing security──► SECURITY_ERROR ┤ elapsed: next
 *                                                                                      ▼ attempt
 *                       RETRY-COUNT retries in a row failed (0 = never) ──► FAILED, no more attempts
 * </pre>
 * Whenever the connection ends (closed, refused, timed out, stopped) the agent's weights are
 * dropped at once ({@link Io#restoreStatic}): static weights come back with the close, not after
 * a missed report, not only after the retries run out. A successful connection resets the count.
 */
public final class AgentSession {
    private static final long NS_PER_S = 1_000_000_000L;

    /** What the session asks of its owner. */
    public interface Io {
        /** Open the TCP connection; the owner reports back with {@link #onConnected} or {@link #onClosed}. */
        void connect(AgentSession s);

        /** Close the connection without reporting it back (the session already knows). */
        void disconnect(AgentSession s);

        /** Forget every weight this agent reported: the reals it set fall back to static weights. */
        void restoreStatic(AgentSession s);

        /** A state change, once per change (for logs). */
        void transition(AgentSession s, AgentState from, AgentState to, String why);
    }

    private final AgentLine config;
    private final Io io;
    private AgentState state = AgentState.NOT_OPEN;
    private boolean exhausted;
    /** Whether the connection in progress is a retry (the first attempt after start or a loss is not counted). */
    private boolean retrying;
    private int attempts;
    private long nextAttemptNs;
    private long lastHeardNs;
    private long lastReportNs;
    private long reports;
    private String lastError = "";

    public AgentSession(AgentLine config, Io io) {
        this.config = config;
        this.io = io;
    }

    public AgentLine config() {
        return config;
    }

    public String key() {
        return config.key();
    }

    public AgentState state() {
        return state;
    }

    public long reports() {
        return reports;
    }

    /** When the last Preference Information arrived (clock nanos), 0 if never. */
    public long lastReportNs() {
        return lastReportNs;
    }

    /** Why the last connection ended, "" if none did yet. */
    public String lastError() {
        return lastError;
    }

    /** Failed retries since the last successful connection. */
    public int attempts() {
        return attempts;
    }

    public void start(long nowNs) {
        retrying = false;
        attempt(nowNs, "started");
    }

    private void attempt(long nowNs, String why) {
        move(AgentState.CONNECTING, why);
        io.connect(this);
    }

    public void onConnected(long nowNs) {
        attempts = 0;
        lastHeardNs = nowNs;
        move(AgentState.OPEN, "connected");
    }

    /** A consistent, accepted message arrived; {@code report} when it was a Preference Information. */
    public void onMessage(long nowNs, boolean report) {
        lastHeardNs = nowNs;
        if (report) {
            reports++;
            lastReportNs = nowNs;
        }
    }

    /**
     * The connection ended or never came up.
     *
     * @param cause {@link AgentState#TRYING} for a close, a time-out or a failed connect;
     *              {@link AgentState#FAILED} for inconsistent data; {@link AgentState#SECURITY_ERROR}
     */
    public void onClosed(long nowNs, AgentState cause, String why) {
        if (state == AgentState.NOT_OPEN) {
            return;
        }
        boolean wasOpen = state == AgentState.OPEN;
        io.restoreStatic(this);
        lastError = why;
        if (!wasOpen && retrying) {
            attempts++;
        }
        retrying = true;
        int limit = config.retryCount();
        if (limit > 0 && attempts >= limit) {
            exhausted = true;
            move(AgentState.FAILED, why + "; " + attempts + " attempt(s) failed, retry count " + limit + " used up");
            return;
        }
        nextAttemptNs = nowNs + config.retryIntervalSeconds() * NS_PER_S;
        move(cause, why + "; next attempt in " + config.retryIntervalSeconds() + " s");
    }

    /** Timers: the agent's silence while open, the retry interval otherwise. */
    public void tick(long nowNs) {
        switch (state) {
            case OPEN -> {
                long timeout = config.timeoutSeconds() * NS_PER_S;
                if (timeout > 0 && nowNs - lastHeardNs >= timeout) {
                    io.disconnect(this);
                    onClosed(nowNs, AgentState.TRYING, "silent for " + config.timeoutSeconds() + " s (timeout)");
                }
            }
            case TRYING, FAILED, SECURITY_ERROR -> {
                if (!exhausted && nowNs - nextAttemptNs >= 0) {
                    attempt(nowNs, "retry interval " + config.retryIntervalSeconds() + " s elapsed");
                }
            }
            default -> {
            }
        }
    }

    /** Removed from the configuration or mclb stops: closes, drops its weights, NOT_OPEN. */
    public void stop() {
        if (state == AgentState.NOT_OPEN) {
            return;
        }
        io.disconnect(this);
        io.restoreStatic(this);
        move(AgentState.NOT_OPEN, "stopped");
    }

    private void move(AgentState to, String why) {
        AgentState from = state;
        state = to;
        if (from != to) {
            io.transition(this, from, to, why);
        }
    }
}
