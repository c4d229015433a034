package io.mclb.perf.udp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import static org.awaitility.Awaitility.await;

class UdpResponderFarmTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private UdpResponderFarm farm;
    private DatagramSocket client;

    @BeforeEach
    void setUp() throws IOException {
        farm = UdpResponderFarm.start(List.of(new InetSocketAddress(LOOPBACK, 0), new InetSocketAddress(LOOPBACK, 0)));
        client = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0));
        client.setSoTimeout(2_000);
    }

    @AfterEach
    void tearDown() {
        client.close();
        farm.close();
    }

    @Test
    void bindsEphemeralPortsInOrder() {
        assertThat(farm.size()).isEqualTo(2);
        assertThat(farm.boundAddresses()).hasSize(2).allSatisfy(a -> {
            assertThat(a.getAddress()).isEqualTo(LOOPBACK);
            assertThat(a.getPort()).isPositive();
        });
        assertThat(farm.boundAddresses().get(0).getPort()).isNotEqualTo(farm.boundAddresses().get(1).getPort());
    }

    @Test
    void echoesEachDatagramByteForByteFromTheAddressItWasSentTo() throws IOException {
        for (int index = 0; index < 2; index++) {
            byte[] request = ("hello responder " + index + " \u0000\u00ff").getBytes(StandardCharsets.ISO_8859_1);
            InetSocketAddress responder = farm.boundAddresses().get(index);
            client.send(new DatagramPacket(request, request.length, responder));

            DatagramPacket reply = new DatagramPacket(new byte[2048], 2048);
            client.receive(reply);

            assertThat(Arrays.copyOf(reply.getData(), reply.getLength())).isEqualTo(request);
            assertThat(reply.getSocketAddress()).isEqualTo(responder);
        }
        assertThat(farm.received(0)).isEqualTo(1);
        assertThat(farm.answered(0)).isEqualTo(1);
        assertThat(farm.received(1)).isEqualTo(1);
        assertThat(farm.answered(1)).isEqualTo(1);
        assertThat(farm.totalReceived()).isEqualTo(2);
    }

    @Test
    void silentResponderCountsButDoesNotAnswerUntilUnsilenced() throws IOException {
        farm.setSilent(1, true);
        assertThat(farm.isSilent(1)).isTrue();
        InetSocketAddress silent = farm.boundAddresses().get(1);
        byte[] request = {1, 2, 3};
        client.setSoTimeout(300);
        for (int i = 0; i < 3; i++) {
            client.send(new DatagramPacket(request, request.length, silent));
        }
        await().until(() -> farm.received(1) == 3);
        DatagramPacket reply = new DatagramPacket(new byte[64], 64);
        assertThatThrownBy(() -> client.receive(reply)).isInstanceOf(SocketTimeoutException.class);
        assertThat(farm.answered(1)).isZero();

        farm.setSilent(1, false);
        client.setSoTimeout(2_000);
        client.send(new DatagramPacket(request, request.length, silent));
        client.receive(reply);
        assertThat(Arrays.copyOf(reply.getData(), reply.getLength())).isEqualTo(request);
        assertThat(farm.received(1)).isEqualTo(4);
        assertThat(farm.answered(1)).isEqualTo(1);
        assertThat(farm.received(0)).isZero();
    }

    @Test
    void failedBindReleasesWhatWasBound() {
        InetSocketAddress taken = farm.boundAddresses().get(0);
        assertThatThrownBy(() -> UdpResponderFarm.start(List.of(new InetSocketAddress(LOOPBACK, 0), taken)))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> UdpResponderFarm.start(List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
