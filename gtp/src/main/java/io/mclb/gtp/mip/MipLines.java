package io.mclb.gtp.mip;

/**
 * The records of the Home Agent Director's configuration lines ({@link MipConfigSyntax} reads
 * them once; runtime code reads only these). gtp/README.md lists the lines with their defaults.
 */
final class MipLines {
    private MipLines() {
    }

    /** vserver {@code idle ipmobile request S}: how long a registration waits for its reply. */
    record IdleRequest(int seconds) {
    }
}
