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
        String path = "META-INF/native/libmclb-" + name + "-" + System.getProperty("os.arch") + ".so";
        URL url = JniLibrary.class.getClassLoader().getResource(path);
        if (url == null) {
            return "this build has no " + path + " (built only where gcc is installed)";
        }
        try {
            Path lib;
            if (url.getProtocol().equals("file")) {
                lib = Path.of(url.toURI());
            } else {
                lib = Files.createTempFile("libmclb-" + name, ".so");
                lib.toFile().deleteOnExit();
                try (InputStream in = url.openStream()) {
                    Files.copy(in, lib, StandardCopyOption.REPLACE_EXISTING);
                }
            }
            System.load(lib.toAbsolutePath().toString());
            return null;
        } catch (IOException | java.net.URISyntaxException | UnsatisfiedLinkError | SecurityException e) {
            return "cannot load " + path + ": " + e.getMessage();
        }
    }
}
