package io.mclb.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A helper in a jar is extracted, loaded and its extracted copy deleted at once, loaded or not. */
class JniLibraryTest {
    private static final String ARCH = System.getProperty("os.arch");

    @TempDir
    Path tmp;

    private Path extractDir() throws IOException {
        return Files.createDirectories(tmp.resolve("extract"));
    }

    private URLClassLoader jarWith(String name, byte[] content) throws IOException {
        Path jar = tmp.resolve(name + ".jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out)) {
            j.putNextEntry(new JarEntry("META-INF/native/libmclb-" + name + "-" + ARCH + ".so"));
            j.write(content);
            j.closeEntry();
        }
        return new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
    }

    private static long filesIn(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    /** The JVM prints a "might have disabled stack guard" warning for this file: it retries a failed load once, harmlessly. */
    @Test
    void aHelperThatDoesNotLoadLeavesNoExtractedCopy() throws IOException {
        Path dir = extractDir();
        try (URLClassLoader jar = jarWith("bogus", "not an ELF object".getBytes())) {
            assertThat(JniLibrary.load("bogus", jar, dir)).startsWith("cannot load META-INF/native/libmclb-bogus-");
        }
        assertThat(filesIn(dir)).isZero();
    }

    @Test
    void aHelperThatLoadsLeavesNoExtractedCopy() throws IOException {
        String lib = "META-INF/native/libmclb-mmsg-" + ARCH + ".so";
        URL built = getClass().getClassLoader().getResource(lib);
        assumeTrue(built != null, "this build has no " + lib + " (no gcc)");
        byte[] content;
        try (InputStream in = built.openStream()) {
            content = in.readAllBytes();
        }
        Path dir = extractDir();
        try (URLClassLoader jar = jarWith("mmsg", content)) {
            assertThat(JniLibrary.load("mmsg", jar, dir)).isNull();
        }
        assertThat(filesIn(dir)).as("the process keeps its mapping; the file is not needed").isZero();
    }

    @Test
    void aBuildWithoutTheHelperSaysSo() throws IOException {
        try (URLClassLoader empty = new URLClassLoader(new URL[0], null)) {
            assertThat(JniLibrary.load("absent", empty, extractDir())).startsWith("this build has no META-INF/native/libmclb-absent-");
        }
    }
}
