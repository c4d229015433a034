package io.mclb.radius.lb;

import io.mclb.radius.codec.RadiusSecret;

/**
 * The own settings of an {@code ip slb probe NAME radius} stanza (its timing lines are the
 * engine's, in {@link io.mclb.config.ProbeConfig}).
 *
 * @param user     {@code access-request user U password P}: the user, or null for Status-Server
 * @param password its password, or null
 */
record ProbeSettings(String user, RadiusSecret password) {
    boolean statusServer() {
        return user == null;
    }
}
