package io.mclb.feedback.dfp;

/**
 * A DFP agent as its manager sees it: CISCO-SLB-MIB {@code SlbDfpAgentState}, with the MIB's
 * numbers (the value of {@code mclb_dfp_agent_state{agent}}).
 */
public enum AgentState {
    /** Not started (no configuration yet, or removed). */
    NOT_OPEN(1, "not open"),
    /** Waiting for the next connection attempt (retry interval). */
    TRYING(2, "trying"),
    /** TCP connect in progress. */
    CONNECTING(3, "connecting"),
    /** Connected: DFP Parameters sent, reports applied. */
    OPEN(4, "open"),
    /** The agent sent inconsistent data, or the retry count ran out. */
    FAILED(5, "failed"),
    /** A password is configured and the agent's message was not signed with it. */
    SECURITY_ERROR(6, "security error");

    private final int mib;
    private final String label;

    AgentState(int mib, String label) {
        this.mib = mib;
        this.label = label;
    }

    public int mib() {
        return mib;
    }

    public String label() {
        return label;
    }
}
