package io.mclb.gtp.mip;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code service ipmobile} end to end on loopback: registrations reach the home agent byte for
 * byte and the reply comes back from the virtual address; retransmissions, renewals and the
 * deregistration stay on the binding's home agent; a request naming a member goes there; 130
 * moves a registration, other codes are forwarded; malformed requests are dropped by reason.
 */
class MipServiceTest {
    private static final Duration WAIT = Duration.ofSeconds(5);
    @TempDir
    Path dir;
    private MipHarness h;

    @AfterEach
    void close() throws Exception {
        if (h != null) {
            h.close();
        }
    }

    private FakeHomeAgent holder(int count) {
        return h.agents.stream().filter(a -> a.count() == count).findFirst().orElseThrow();
    }

    @Test
    void aRegistrationIsForwardedUnmodifiedAndItsRenewalsAndDeregistrationStayOnItsHomeAgent() throws Exception {
        h = new MipHarness(dir, 3);
        DatagramSocket fa = h.client("127.0.0.1");
        byte[] rrq = MipMessages.rrq("10.9.0.1", "0.0.0.0", 600, 0x11111111_00000001L, "mn1@example.net");
        h.send(fa, rrq);
        byte[] rrp = h.receive(fa);
        assertThat(rrp[0]).isEqualTo((byte) 3);
        assertThat(rrp[1]).as("accepted").isZero();
        FakeHomeAgent ha = holder(1);
        assertThat(ha.seen().get(0)).as("the registration reached the home agent byte for byte").isEqualTo(rrq);
        assertThat(Arrays.copyOfRange(rrp, 16, 20)).as("the reply's Identification low bits are the request's")
                .isEqualTo(Arrays.copyOfRange(rrq, 20, 24));
        assertThat(h.module.bindings().size()).isEqualTo(1);
        assertThat(h.module.bindings().snapshot().get(0).grantedSeconds()).isEqualTo(600);
        assertThat(h.real(ha).activeConnections()).as("the binding holds one connection").isEqualTo(1);

        // a retransmission (the same Identification) reaches the same home agent
        h.send(fa, rrq);
        h.receive(fa);
        assertThat(ha.count()).isEqualTo(2);
        assertThat(h.counter("mclb.retransmissions")).isEqualTo(1);

        // renewals with new Identifications, still addressed to 0.0.0.0, follow the binding
        for (int i = 2; i < 8; i++) {
            h.send(fa, MipMessages.rrq("10.9.0.1", "0.0.0.0", 600, 0x11111111_00000000L + i, "mn1@example.net"));
            assertThat(h.receive(fa)[1]).isZero();
        }
        assertThat(ha.count()).isEqualTo(8);
        assertThat(h.module.bindings().size()).isEqualTo(1);
        assertThat(h.real(ha).activeConnections()).as("a renewal replaces the binding, never adds one").isEqualTo(1);

        // the deregistration goes there too and ends the binding
        h.send(fa, MipMessages.rrq("10.9.0.1", "0.0.0.0", 0, 0x11111111_00000100L, "mn1@example.net"));
        assertThat(h.receive(fa)[1]).isZero();
        assertThat(ha.count()).isEqualTo(9);
        assertThat(h.module.bindings().size()).isZero();
        assertThat(h.real(ha).activeConnections()).isZero();
        assertThat(h.counter("mclb.mip.replies", "vserver", MipHarness.VS, "real", h.real(ha).label(), "code", "0"))
                .isEqualTo(9);
    }

    @Test
    void withoutNaiTheHomeAddressKeysTheBindingAndTheGrantedLifetimeEndsIt() throws Exception {
        h = new MipHarness(dir, 2);
        h.agents.forEach(a -> a.maxLifetime = 60);
        DatagramSocket fa = h.client("127.0.0.1");
        h.send(fa, MipMessages.rrq("10.9.0.2", "255.255.255.255", 600, 1, null));
        h.receive(fa);
        FakeHomeAgent ha = holder(1);
        assertThat(h.module.bindings().snapshot().get(0).grantedSeconds()).as("granted, not requested").isEqualTo(60);
        h.send(fa, MipMessages.rrq("10.9.0.2", h.vip.getAddress().getHostAddress(), 600, 2, null));
        h.receive(fa);
        assertThat(ha.count()).as("a renewal to the VIP follows the binding").isEqualTo(2);
        h.clock.advanceSeconds(61);
        h.runtime.bindings().expireAll();
        assertThat(h.module.bindings().size()).isZero();
        assertThat(h.real(ha).activeConnections()).isZero();
    }

    @Test
    void aRequestNamingAFarmMembersAddressGoesToThatMember() throws Exception {
        h = new MipHarness(dir, 3);
        DatagramSocket fa = h.client("127.0.0.1");
        FakeHomeAgent third = h.agents.get(2);
        for (int i = 0; i < 6; i++) {
            h.send(fa, MipMessages.rrq("10.9.1." + i, third.address(), 600, 100 + i, "mn" + i + "@example.net"));
            h.receive(fa);
        }
        assertThat(third.count()).isEqualTo(6);
    }

    @Test
    void insufficientResourcesMovesTheRegistrationAndTheMobileNodeSeesOnlyTheSecondReply() throws Exception {
        h = new MipHarness(dir, 2);
        FakeHomeAgent busy = h.agents.get(0);
        busy.code = () -> 130;
        DatagramSocket fa = h.client("127.0.0.1");
        // weighted round robin starts with the first real
        h.send(fa, MipMessages.rrq("10.9.2.1", "0.0.0.0", 600, 7, "mn@example.net"));
        byte[] rrp = h.receive(fa);
        assertThat(rrp[1]).as("the other home agent's acceptance").isZero();
        assertThat(busy.count()).isEqualTo(1);
        assertThat(h.agents.get(1).count()).isEqualTo(1);
        assertThat(h.agents.get(1).seen().get(0)).isEqualTo(busy.seen().get(0));
        assertThat(h.real(busy).failures()).isEqualTo(1);
        assertThat(h.counter("mclb.reassignments", "reason", "cause")).isEqualTo(1);
        assertThat(h.counter("mclb.mip.replies", "code", "130")).isEqualTo(1);
        assertThat(h.module.bindings().snapshot().get(0).real()).isSameAs(h.real(h.agents.get(1)));
    }

    @Test
    void subscriberAndRequestProblemsAreForwardedUntouched() throws Exception {
        h = new MipHarness(dir, 1);
        DatagramSocket fa = h.client("127.0.0.1");
        for (int code : new int[] {131, 133, 134, 136, 143}) {
            h.agents.get(0).code = () -> code;
            h.send(fa, MipMessages.rrq("10.9.3.1", "0.0.0.0", 600, code, "mn@example.net"));
            assertThat(h.receive(fa)[1] & 0xFF).isEqualTo(code);
        }
        assertThat(h.module.bindings().size()).isZero();
        assertThat(h.counter("mclb.reassignments", "reason", "cause")).isZero();
    }

    @Test
    void malformedRegistrationsAreDroppedByReasonAndNeverForwarded() throws Exception {
        h = new MipHarness(dir, 1);
        DatagramSocket fa = h.client("127.0.0.1");
        byte[] good = MipMessages.rrq("10.9.4.1", "0.0.0.0", 600, 9, "mn@example.net");
        h.send(fa, Arrays.copyOf(good, 23));
        byte[] overrun = good.clone();
        overrun[25] = (byte) 200; // the NAI extension claims 200 octets
        h.send(fa, overrun);
        byte[] unknown = good.clone();
        unknown[0] = 7; // a Registration Revocation is no balancer's business
        h.send(fa, unknown);
        h.send(fa, FakeHomeAgent.reply(good, 0, 600, new byte[] {1, 2, 3, 4}));
        await().atMost(WAIT).until(() -> h.counter("mclb.requests") == 4);
        assertThat(h.drops("mip_truncated")).isEqualTo(1);
        assertThat(h.drops("mip_extension_overruns")).isEqualTo(1);
        assertThat(h.drops("mip_unknown_type")).isEqualTo(1);
        assertThat(h.drops("mip_reply_to_vip")).isEqualTo(1);
        assertThat(h.agents.get(0).count()).isZero();
        h.send(fa, good);
        assertThat(h.receive(fa)[1]).as("still serving").isZero();
    }

    /** Issue 14 item 5: an extension shorter than its fixed part never reaches a home agent. */
    @Test
    void extensionsShorterThanTheirFixedPartAreNeverForwarded() throws Exception {
        h = new MipHarness(dir, 1);
        DatagramSocket fa = h.client("127.0.0.1");
        byte[] good = MipMessages.rrq("10.9.4.1", "0.0.0.0", 600, 11, "mn@example.net");
        byte[] fixed = Arrays.copyOf(good, MipMessage.REQUEST_FIXED);
        byte[][] bad = {
            concat(fixed, new byte[] {32, 3, 0, 0, 1}),                 // MN-HA authentication without its 4-octet SPI
            concat(fixed, new byte[] {(byte) 131, 0, 32, 4, 0, 0, 1, 0}), // an empty NAI
            concat(fixed, new byte[] {36, 1, 0, 2, 0, 1}),              // generalized authentication, 2 octets
            concat(fixed, new byte[] {38, 0, 0, 4, 0, 0, 0, 9}),        // CVSE without its vendor type
        };
        for (byte[] b : bad) {
            h.send(fa, b);
        }
        await().atMost(WAIT).until(() -> h.counter("mclb.requests") == bad.length);
        assertThat(h.drops("mip_bad_extension")).isEqualTo(bad.length);
        assertThat(h.agents.get(0).count()).isZero();
        h.send(fa, good);
        assertThat(h.receive(fa)[1]).as("a well-formed registration still passes").isZero();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
