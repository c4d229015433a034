package io.mclb.ha.group;

import java.net.InetAddress;

/**
 * One message of mclb's group protocol (see {@link HelloCodec} for the wire layout).
 *
 * @param type        what the message is for
 * @param group       the group number
 * @param state       the sender's state
 * @param priority    the sender's effective priority (configured minus tracked decrements)
 * @param forced      the sender was forced active by an operator ({@code mclb failover active}); beats any priority
 * @param score       the sender's connectivity score, 0..1000 (per mille of its tracked links up)
 * @param helloMs     the sender's hello period
 * @param holdMs      the sender's hold time: how long this message keeps the sender alive
 * @param bootId      the sender's start time in epoch ms: a restarted sender has a larger one
 * @param sequence    per boot, strictly increasing: (bootId, sequence) refuses replays
 * @param activeForMs how long the sender has been active (0 when it is not)
 * @param sender      the sender's interface address
 * @param vip         the group's virtual address, or null when the sender does not know it
 */
public record Hello(Type type, int group, HsrpState state, int priority, boolean forced, int score, int helloMs,
                    int holdMs, long bootId, long sequence, long activeForMs, InetAddress sender, InetAddress vip) {

    /** Message types; HELLO and RESIGN follow HSRP's op codes, the probe pair is mclb's split-brain check. */
    public enum Type {
        HELLO(0),
        /** The active router is leaving (graceful stop): the standby takes over at once. */
        RESIGN(2),
        /** Sent to the virtual address (and to peers) before taking over: "is anyone active for this group?" */
        PROBE(16),
        /** The answer to a PROBE, carrying the answering node's state. */
        PROBE_REPLY(17),
        /** The active node stops without handing over ({@code mclb stop --no-handover}): the standby must not take over. */
        STOP(18);

        public final int code;

        Type(int code) {
            this.code = code;
        }

        static Type of(int code) {
            for (Type t : values()) {
                if (t.code == code) {
                    return t;
                }
            }
            return null;
        }
    }
}
