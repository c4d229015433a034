package io.mclb.cli;

import io.mclb.metrics.BuildInfo;
import picocli.CommandLine;

/** {@code mclb -V}: the version {@code mclb_build_info} exports too (both read {@link BuildInfo}). */
public final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {"mclb " + BuildInfo.version(), "commit " + BuildInfo.commit() + ", Java " + BuildInfo.java()};
    }
}
