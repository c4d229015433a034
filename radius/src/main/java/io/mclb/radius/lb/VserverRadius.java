package io.mclb.radius.lb;

import io.mclb.radius.codec.RadiusSecret;

/**
 * The RADIUS lines of one {@code service radius} virtual server, resolved. Group numbers are
 * final: a subscriber sticky line without {@code group} uses the virtual server's own table
 * ({@link io.mclb.vserver.VirtualServer#ownGroup}). A group of 0 means "not configured".
 *
 * @param callingStationGroup {@code sticky radius calling-station-id [group N]}
 * @param usernameGroup       {@code sticky radius username [group N]} (the 3GPP-IMSI VSA, when present, wins over User-Name)
 * @param framedIpGroup       {@code sticky radius framed-ip [group N]}
 * @param learnGroup          where framed-IP entries learned by this virtual server go: its own
 *                            framed-ip group, else a framed-ip group of another virtual server that
 *                            shares one of this one's sticky groups, else 0 (no learning)
 * @param requestTimeoutMs    {@code idle radius request S} (default 10 s)
 * @param subscriberSeconds   {@code idle radius framed-ip S}: lifetime of every subscriber sticky entry (default 7200 s)
 * @param purgeOnOff          {@code purge radius framed-ip acct on-off}
 * @param localAck            {@code radius acct local-ack key ...} secret, or null
 * @param injectAuth          {@code radius inject auth vsa cisco}: remember Cisco VSAs of Access-Requests
 * @param injectAcct          {@code radius inject acct vsa cisco}: add them to Accounting-Start
 * @param passThrough         mclb holds no secret for this virtual server ({@link PassThroughRule}):
 *                            requests and answers are forwarded unchanged, nothing is verified
 * @param maFromClients       {@code radius require message-authenticator [client]}: an Access-Request
 *                            without Message-Authenticator is dropped
 * @param maFromServers       {@code radius require message-authenticator [server]}: an answer to an
 *                            Access-Request without one is dropped (and mclb adds one to every
 *                            Access-Request it sends, so that the AAA signs its answer)
 */
record VserverRadius(String name, int callingStationGroup, int usernameGroup, int framedIpGroup, int learnGroup,
                     long requestTimeoutMs, int subscriberSeconds, boolean purgeOnOff, RadiusSecret localAck,
                     boolean injectAuth, boolean injectAcct, boolean passThrough, boolean maFromClients,
                     boolean maFromServers) {
    static final long DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
    static final int DEFAULT_SUBSCRIBER_SECONDS = 7200;
}
