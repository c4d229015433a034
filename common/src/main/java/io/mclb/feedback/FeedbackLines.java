package io.mclb.feedback;

import io.mclb.config.SourceRef;

import java.net.InetAddress;
import java.util.List;

/**
 * The load-feedback configuration lines as records (read once by {@link FeedbackSyntax}; runtime code
 * reads these, never tokens). Defaults marked U are not verified against Cisco documentation
 * ({@code reference/dfp-kalap.md} section 10).
 */
public final class FeedbackLines {
    private FeedbackLines() {
    }

    /** IOS: password roll-over window, 180 s (V). */
    public static final int DEFAULT_PASSWORD_TIMEOUT_SECONDS = 180;
    /** {@code agent} TIMEOUT: 0 = the agent may be silent for ever (U). */
    public static final int DEFAULT_AGENT_TIMEOUT_SECONDS = 0;
    /** {@code agent} RETRY-COUNT: 0 = retry for ever (U). */
    public static final int DEFAULT_RETRY_COUNT = 0;
    /** {@code agent} RETRY-INTERVAL (U). */
    public static final int DEFAULT_RETRY_INTERVAL_SECONDS = 180;
    /** {@code ip dfp agent} {@code interval} (U). */
    public static final int DEFAULT_REPORT_INTERVAL_SECONDS = 10;

    /**
     * {@code ip slb dfp [password [0|7] PW [TIMEOUT]]}: mclb as DFP manager, with its {@code agent} lines.
     *
     * @param password               clear text (type 7 decoded), or null for none
     * @param passwordTimeoutSeconds how long the previous password stays accepted after a change
     * @param childErrors            sub-lines that were refused, reported at their own line by
     *                               {@link FeedbackSyntax#validate}; a configuration with any never runs
     */
    public record ManagerConfig(String password, int passwordTimeoutSeconds, List<AgentLine> agents,
                             List<LineError> childErrors, SourceRef source) {
        public ManagerConfig {
            agents = List.copyOf(agents);
            childErrors = List.copyOf(childErrors);
        }
    }

    /**
     * {@code agent IP PORT [TIMEOUT [RETRY-COUNT [RETRY-INTERVAL]]]} under {@code ip slb dfp}.
     *
     * @param timeoutSeconds       longest silence accepted from the agent, 0 = none; sent to the agent as
     *                             the DFP Parameters keep-alive
     * @param retryCount           reconnect attempts after a loss before the agent is {@code failed}, 0 = for ever
     * @param retryIntervalSeconds wait between attempts
     */
    public record AgentLine(InetAddress address, int port, int timeoutSeconds, int retryCount,
                              int retryIntervalSeconds, SourceRef source) {
        /** The agent as labels and views name it: {@code IP:PORT}. */
        public String key() {
            String ip = address.getHostAddress();
            return (address instanceof java.net.Inet6Address ? "[" + ip + "]" : ip) + ":" + port;
        }
    }

    /**
     * {@code ip dfp agent NAME} with {@code port N}, {@code password [0|7] PW [TIMEOUT]},
     * {@code interval S}, {@code inservice}: mclb reports its virtual servers' weights to managers.
     *
     * @param port 0 when no {@code port} line was given (only allowed out of service)
     */
    public record LocalAgentConfig(String name, int port, String password, int passwordTimeoutSeconds,
                             int intervalSeconds, boolean inService, List<LineError> childErrors,
                             SourceRef source) {
        public LocalAgentConfig {
            childErrors = List.copyOf(childErrors);
        }
    }

    /** {@code bindid [ID]} in a server farm (0 when no ID; {@code no bindid} gives 0 too). */
    public record BindId(int id) {
    }

    /** {@code farm-weight N} in a server farm; 0 is {@code no farm-weight}. */
    public record FarmWeight(int weight) {
    }

    /** {@code kal-ap domain TAG} in a virtual server; null tag is {@code no kal-ap domain}. */
    public record KalApDomain(String tag) {
    }

    /** {@code ip slb capp udp} with its {@code peer} lines (the KAL-AP transport toward a GSS). */
    public record Capp(List<CappPeer> peers, List<LineError> childErrors, SourceRef source) {
        public Capp {
            peers = List.copyOf(peers);
            childErrors = List.copyOf(childErrors);
        }
    }

    /**
     * {@code peer [IP] port N} or {@code peer [IP] secret [0|7] SECRET}.
     *
     * @param address null = every GSS
     * @param port    0 when the line sets the secret only
     * @param secret  clear text, or null when the line sets the port only
     */
    public record CappPeer(InetAddress address, int port, String secret, SourceRef source) {
    }

    /** A refused sub-line of a stanza, kept so that the error names the sub-line's own line. */
    public record LineError(SourceRef at, String message) {
    }
}
