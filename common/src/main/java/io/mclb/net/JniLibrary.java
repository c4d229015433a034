package io.mclb.net;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Loads one of common's JNI helpers ({@code src/main/c}, built into
 * {@code META-INF/native/libmclb-NAME-ARCH.so} where the build machine has gcc) from the class
 * path, extracted to a temporary file when it sits in a jar. Each helper's class calls this once,
 * in its static initialiser, and keeps the answer.
 *
 * <p>The extracted copy is deleted as soon as it is loaded (the process keeps its mapping), as
 * Netty does with its own natives: {@code deleteOnExit} alone left one file in the temporary
 * directory per process that did not exit normally (a SIGKILL, an OOM kill, a benchmark's stop
 * after its grace period), 24 of them on a bench box in one afternoon.
 */
public final class JniLibrary {
    private JniLibrary() {
    }

    /**
     * Loads {@code libmclb-NAME-ARCH.so}.
     *
     * @return null when loaded, else why not (for the start log)
     */
    public static String load(String name) {
        return load(name, JniLibrary.class.getClassLoader(), Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** {@link #load(String)} from {@code loader}, extracting into {@code dir}. */
    static String load(String name, ClassLoader loader, Path dir) {
        String path = "META-INF/native/libmclb-" + name + "-" + System.getProperty("os.arch") + ".so";
        URL url = loader.getResource(path);
        if (url == null) {
            return "this build has no " + path + " (built only where gcc is installed)";
        }
        try {
            if (url.getProtocol().equals("file")) {
                System.load(Path.of(url.toURI()).toAbsolutePath().toString());
                return null;
            }
            Path lib = Files.createTempFile(dir, "libmclb-" + name, ".so");
            try {
                try (InputStream in = url.openStream()) {
                    Files.copy(in, lib, StandardCopyOption.REPLACE_EXISTING);
                }
                System.load(lib.toAbsolutePath().toString());
                return null;
            } finally {
                deleteQuietly(lib);
            }
        } catch (IOException | java.net.URISyntaxException | UnsatisfiedLinkError | SecurityException e) {
            return "cannot load " + path + ": " + e.getMessage();
        }
    }

    private static void deleteQuietly(Path lib) {
        try {
            Files.deleteIfExists(lib);
        } catch (IOException | SecurityException e) {
            lib.toFile().deleteOnExit(); // the next best: gone at a normal exit
        }
    }
}
