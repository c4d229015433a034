package io.mclb.radius.lb;

import io.mclb.vserver.ServiceContext;

/** Placeholder until the probe is written. */
final class RadiusProber {
    RadiusProber(RadiusRuntime rt) {
    }

    void start(ServiceContext ctx) {
    }

    void stop() {
    }
}
