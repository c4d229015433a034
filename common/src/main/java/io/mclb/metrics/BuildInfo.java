package io.mclb.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * What this build is: the version {@code mclb -V} prints and {@code mclb_build_info} exports, the
 * commit it was built from, and the Java runtime running it. The build writes
 * {@code build.properties} next to this class (common/pom.xml filters it), so the command line and
 * the metric read one source and cannot disagree.
 */
public final class BuildInfo {
    /** A build without the filtered file (an IDE's own compiler) or outside a git checkout. */
    public static final String UNKNOWN = "unknown";
    private static final Properties PROPERTIES = load();

    private BuildInfo() {
    }

    /** The Maven project version, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static String version() {
        return value("version");
    }

    /** The abbreviated commit the build was made from. */
    public static String commit() {
        return value("commit");
    }

    /** The Java runtime running mclb ({@code java.version}, e.g. {@code 17.0.13}). */
    public static String java() {
        return System.getProperty("java.version", UNKNOWN);
    }

    private static String value(String key) {
        String v = PROPERTIES.getProperty(key, "").trim();
        // an unfiltered placeholder means the build did not know the value
        return v.isEmpty() || v.startsWith("${") ? UNKNOWN : v;
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read build.properties", e);
        }
        return p;
    }
}
