package io.mclb.config;

import static org.assertj.core.api.Assertions.assertThat;

/** Compares two configurations by settings, ignoring where each object sat in its file. */
final class ConfigAssert {

    private ConfigAssert() {
    }

    static void assertSameSettings(MclbConfig actual, MclbConfig expected) {
        assertThat(actual.global()).isEqualTo(expected.global());
        assertThat(actual.farms().keySet()).containsExactlyElementsOf(expected.farms().keySet());
        expected.farms().forEach((name, f) ->
                assertThat(actual.farms().get(name).sameSettings(f)).as("farm " + name).isTrue());
        assertThat(actual.vservers().keySet()).containsExactlyElementsOf(expected.vservers().keySet());
        expected.vservers().forEach((name, v) ->
                assertThat(actual.vservers().get(name).sameSettings(v)).as("vserver " + name).isTrue());
        assertThat(RealConfig.sameLines(actual.globalExtensions(), expected.globalExtensions()))
                .as("global extension lines").isTrue();
    }
}
