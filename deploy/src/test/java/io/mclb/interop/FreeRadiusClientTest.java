package io.mclb.interop;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** radclient's output as seen in a CI run: an Id reused for a new request once the first was answered. */
class FreeRadiusClientTest {

    @Test
    void anIdReusedAfterItsAnswerIsANewExchangeAndRetransmissionsAreSends() {
        String out = String.join("\n",
                "Sent Access-Request Id 54 from 0.0.0.0:35774 to 127.0.0.100:1812 length 66",
                "\tUser-Name = \"sub002\"",
                "Sent Access-Request Id 7 from 0.0.0.0:35774 to 127.0.0.100:1812 length 66",
                "\tUser-Name = \"sub007\"",
                "Received Access-Accept Id 54 from 127.0.0.100:1812 to 127.0.0.1:35774 length 32",
                "\tReply-Message = \"aaa1\"",
                "Sent Access-Request Id 7 from 0.0.0.0:35774 to 127.0.0.100:1812 length 66",
                "\tUser-Name = \"sub007\"",
                "Sent Access-Request Id 54 from 0.0.0.0:35774 to 127.0.0.100:1812 length 66",
                "\tUser-Name = \"sub039\"",
                "Received Access-Accept Id 7 from 127.0.0.100:1812 to 127.0.0.1:35774 length 32",
                "\tReply-Message = \"aaa3\"",
                "Received Access-Accept Id 54 from 127.0.0.100:1812 to 127.0.0.1:35774 length 32",
                "\tReply-Message = \"aaa2\"",
                "");
        FreeRadiusClient.Result r = FreeRadiusClient.parse(0, out);
        assertThat(r.problems()).isEmpty();
        assertThat(r.exchanges()).hasSize(3);
        assertThat(r.answered("Access-Accept")).isEqualTo(3);
        assertThat(r.exchanges()).anySatisfy(e -> {
            assertThat(e.requestAttr("User-Name")).isEqualTo("sub002");
            assertThat(e.responseAttr("Reply-Message")).isEqualTo("aaa1");
        });
        assertThat(r.exchanges()).anySatisfy(e -> {
            assertThat(e.requestAttr("User-Name")).isEqualTo("sub039");
            assertThat(e.responseAttr("Reply-Message")).isEqualTo("aaa2");
        });
        assertThat(r.exchanges()).anySatisfy(e -> {
            assertThat(e.requestAttr("User-Name")).isEqualTo("sub007");
            assertThat(e.sends()).isEqualTo(2);
            assertThat(e.responseAttr("Reply-Message")).isEqualTo("aaa3");
        });
    }

    @Test
    void aRequestWithoutAnswerStaysUnansweredAndIsReported() {
        String out = String.join("\n",
                "Sent Access-Request Id 9 from 0.0.0.0:1 to 127.0.0.100:1812 length 66",
                "\tUser-Name = \"sub009\"",
                "(0) No reply from server for ID 9 socket 3",
                "");
        FreeRadiusClient.Result r = FreeRadiusClient.parse(1, out);
        assertThat(r.answered("Access-Accept")).isZero();
        assertThat(r.problems()).hasSize(1);
    }
}
