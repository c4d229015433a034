package io.mclb.gtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.mclb.gtp.GtpCause.Action;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GtpCodePointsTest {
    @ParameterizedTest
    @CsvSource({
        "128, ACCEPTED", "129, ACCEPTED", "130, ACCEPTED",
        "199, NODE_FAILURE", "204, NODE_FAILURE", "211, NODE_FAILURE", "212, NODE_FAILURE",
        "192, REJECTED", "210, REJECTED", "219, REJECTED", "229, REJECTED", "255, REJECTED",
        "0, OTHER", "7, OTHER", "127, OTHER"
    })
    void classifiesV1Causes(int cause, Action action) {
        assertThat(GtpCause.classifyV1(cause)).isEqualTo(action);
    }

    @ParameterizedTest
    @CsvSource({
        "16, ACCEPTED", "17, ACCEPTED", "19, ACCEPTED", "63, ACCEPTED",
        "72, NODE_FAILURE", "73, NODE_FAILURE", "84, NODE_FAILURE", "91, NODE_FAILURE",
        "64, REJECTED", "78, REJECTED", "113, REJECTED", "239, REJECTED",
        "2, OTHER", "15, OTHER", "240, OTHER"
    })
    void classifiesV2Causes(int cause, Action action) {
        assertThat(GtpCause.classifyV2(cause)).isEqualTo(action);
    }

    @Test
    void v1MessageTypesKnowDirectionAndInitiality() {
        assertThat(GtpMessageType.v1(16).isRequest()).isTrue();
        assertThat(GtpMessageType.v1(16).isInitial()).isTrue();
        assertThat(GtpMessageType.v1(17).isResponse()).isTrue();
        assertThat(GtpMessageType.v1(17).isInitial()).isFalse();
        assertThat(GtpMessageType.v1(1).name()).isEqualTo("EchoRequest");
        assertThat(GtpMessageType.v1(3).kind()).isEqualTo(GtpMessageType.Kind.OTHER);
        assertThat(GtpMessageType.v1(20).isRequest()).isTrue();
        assertThat(GtpMessageType.v1(21).isResponse()).isTrue();
    }

    @Test
    void v2MessageTypesKnowCommandsAndIndications() {
        assertThat(GtpMessageType.v2(32).isRequest()).isTrue();
        assertThat(GtpMessageType.v2(33).isResponse()).isTrue();
        assertThat(GtpMessageType.v2(64).isInitial()).isTrue();
        assertThat(GtpMessageType.v2(65).isResponse()).isTrue();
        assertThat(GtpMessageType.v2(176).isRequest()).isTrue();
        assertThat(GtpMessageType.v2(177).isResponse()).isTrue();
    }

    @Test
    void unknownTypesAreInternedAndKept() {
        GtpMessageType t = GtpMessageType.v2(250);
        assertThat(t.isKnown()).isFalse();
        assertThat(t.code()).isEqualTo(250);
        assertThat(GtpMessageType.v2(250)).isSameAs(t);
        assertThat(GtpMessageType.v1(0x1FF)).isSameAs(GtpMessageType.v1(255));
    }
}
