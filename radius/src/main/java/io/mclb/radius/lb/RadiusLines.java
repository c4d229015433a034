package io.mclb.radius.lb;

import io.mclb.radius.codec.RadiusSecret;

import java.net.InetAddress;

/**
 * The records of the RADIUS configuration lines ({@link RadiusConfigSyntax} reads them once;
 * runtime code reads only these). radius/README.md lists the lines.
 */
final class RadiusLines {
    private RadiusLines() {
    }

    /** global {@code mclb radius client IP MASK key 0|7 SECRET}: a NAS (or NAS subnet) and its secret. */
    record Client(InetAddress network, int prefix, RadiusSecret secret) {
    }

    /** real {@code mclb radius key 0|7 SECRET}: the secret between mclb and this AAA. */
    record RealKey(RadiusSecret secret) {
    }

    /** The identity a {@code sticky radius ...} line keys subscribers by. */
    enum Identity { CALLING_STATION_ID, USERNAME, FRAMED_IP }

    /** vserver {@code sticky radius calling-station-id|username|framed-ip [group N]}; group 0 = own table. */
    record Sticky(Identity identity, int group) {
    }

    /** vserver {@code idle radius request S}. */
    record IdleRequest(int seconds) {
    }

    /** vserver {@code idle radius framed-ip S}: lifetime of every subscriber sticky entry. */
    record IdleSubscriber(int seconds) {
    }

    /** vserver {@code purge radius framed-ip acct on-off|stop}. */
    record Purge(boolean onOff) {
    }

    /** vserver {@code radius acct local-ack key 0|7 SECRET}. */
    record LocalAck(RadiusSecret secret) {
    }

    /** vserver {@code radius inject auth|acct vsa cisco}. */
    record Inject(boolean auth) {
    }

    /** vserver {@code radius require message-authenticator [client|server]}: from the NASes, the AAAs, or both. */
    record RequireMessageAuthenticator(boolean fromClients, boolean fromServers) {
    }
}
