package io.mclb;

import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The process turns Netty's leak detector off unless the operator names a level. */
class MainLeakDetectorTest {
    private final ResourceLeakDetector.Level before = ResourceLeakDetector.getLevel();
    private final String property = System.getProperty("io.netty.leakDetection.level");

    @AfterEach
    void restore() {
        ResourceLeakDetector.setLevel(before);
        if (property == null) {
            System.clearProperty("io.netty.leakDetection.level");
        } else {
            System.setProperty("io.netty.leakDetection.level", property);
        }
    }

    @Test
    void offByDefaultAndAsTheOperatorSaysWhenNamed() {
        System.clearProperty("io.netty.leakDetection.level");
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.SIMPLE);
        Main.quietLeakDetector();
        assertThat(ResourceLeakDetector.getLevel()).isEqualTo(ResourceLeakDetector.Level.DISABLED);

        System.setProperty("io.netty.leakDetection.level", "paranoid");
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        Main.quietLeakDetector();
        assertThat(ResourceLeakDetector.getLevel()).as("named by the operator").isEqualTo(ResourceLeakDetector.Level.PARANOID);
    }
}
