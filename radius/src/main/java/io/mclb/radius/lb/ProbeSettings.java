package io.mclb.radius.lb;

import io.mclb.radius.codec.RadiusSecret;

/**
 * {@code ip slb probe NAME radius} with its sub-lines.
 *
 * @param intervalSeconds {@code interval S} (default 10)
 * @param faildetect      {@code faildetect N}: consecutive failed probes that fail a real (default 3)
 * @param timeoutSeconds  {@code timeout S}: how long one probe waits for its answer (default 5)
 * @param user            {@code access-request user U password P}: the user, or null for Status-Server
 * @param password        its password, or null
 */
record ProbeSettings(String name, int intervalSeconds, int faildetect, int timeoutSeconds, String user,
                     RadiusSecret password) {
    static final int DEFAULT_INTERVAL = 10;
    static final int DEFAULT_FAILDETECT = 3;
    static final int DEFAULT_TIMEOUT = 5;

    boolean statusServer() {
        return user == null;
    }
}
