package io.mclb.radius.lb;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** A test that runs one {@link RadiusHarness} at a time in a data directory of its own, closed after each test. */
abstract class RadiusHarnessTest {
    @TempDir
    Path dataDir;
    RadiusHarness h;

    @AfterEach
    void closeHarness() throws Exception {
        if (h != null) {
            h.close();
        }
    }
}
