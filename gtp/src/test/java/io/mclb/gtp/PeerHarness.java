package io.mclb.gtp;

import io.mclb.metrics.MetricNames;
import io.mclb.runtime.MclbRuntime;
import io.mclb.time.ManualClock;
import io.micrometer.core.instrument.Counter;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the mobility services' harnesses share: a runtime on a manual clock with one virtual
 * server on 127.0.0.1, client sockets, answers checked to leave from the virtual address, counters.
 */
public abstract class PeerHarness implements AutoCloseable {
    public final ManualClock clock = new ManualClock();
    public final List<DatagramSocket> clients = new ArrayList<>();
    public InetSocketAddress vip;
    public MclbRuntime runtime;
    private final String vserver;

    protected PeerHarness(String vserver) {
        this.vserver = vserver;
    }

    public DatagramSocket client(String address) throws IOException {
        DatagramSocket s = new DatagramSocket(0, InetAddress.getByName(address));
        s.setSoTimeout(3000);
        clients.add(s);
        return s;
    }

    public void send(DatagramSocket c, byte[] b) throws IOException {
        c.send(new DatagramPacket(b, b.length, vip));
    }

    /** One datagram, checked to come from the virtual address. */
    public byte[] receive(DatagramSocket c) throws IOException {
        byte[] buf = new byte[9000];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        c.receive(p);
        if (!vip.equals(p.getSocketAddress())) {
            throw new AssertionError("answer from " + p.getSocketAddress() + ", not the virtual address " + vip);
        }
        return Arrays.copyOf(buf, p.getLength());
    }

    public double counter(String name, String... tags) {
        return runtime.registry().find(name).tags(tags).counters().stream().mapToDouble(Counter::count).sum();
    }

    public double drops(String reason) {
        return counter("mclb.drops", "vserver", vserver, "reason", reason);
    }

    /**
     * (datagrams into mclb) - (counted outcomes), which the service fuzz tests require to reach 0:
     * clients + peers = drops + assignments + retransmissions + one-way + responses + cause reassignments.
     */
    public double balance(long fromClients, long fromPeers) {
        double outcomes = counter(MetricNames.DROPS) + counter(MetricNames.ASSIGNMENTS)
                + counter(MetricNames.RETRANSMISSIONS) + counter(MetricNames.RESPONSES)
                + counter(MetricNames.REASSIGNMENTS, "reason", "cause") + counter(MetricNames.ONE_WAY);
        return fromClients + fromPeers - outcomes;
    }

    /**
     * Paces a fuzz run: every {@code batch} datagrams, waits until mclb has read all {@code sent}, so
     * no burst overflows the socket buffer (a datagram lost there is in no book).
     */
    public void pace(int sent, int batch, java.time.Duration within) {
        if (sent % batch == 0) {
            await().atMost(within).pollInterval(java.time.Duration.ofMillis(1))
                    .until(() -> counter(MetricNames.REQUESTS) >= sent);
        }
    }

    /**
     * The end of a fuzz run: every peer has handled what it received and the books balance
     * ({@link #balance}), and stay so for 300 ms (no datagram still on its way).
     */
    public void awaitSettled(long fromClients, BooleanSupplier peersDone, LongSupplier fromPeers,
                             java.time.Duration within) {
        await().atMost(within).during(java.time.Duration.ofMillis(300)).pollInterval(java.time.Duration.ofMillis(20))
                .untilAsserted(() -> {
                    assertThat(peersDone.getAsBoolean()).isTrue();
                    assertThat(balance(fromClients, fromPeers.getAsLong()))
                            .as(books(fromClients, fromPeers.getAsLong())).isZero();
                });
    }

    /** The terms of {@link #balance}, for a failure message. */
    public String books(long fromClients, long fromPeers) {
        return "from clients " + fromClients + ", from reals " + fromPeers + "; drops " + dropsByReason()
                + ", assignments " + counter(MetricNames.ASSIGNMENTS) + ", retransmissions "
                + counter(MetricNames.RETRANSMISSIONS) + ", one-way " + counter(MetricNames.ONE_WAY) + ", responses "
                + counter(MetricNames.RESPONSES) + ", cause reassignments "
                + counter(MetricNames.REASSIGNMENTS, "reason", "cause");
    }

    public java.util.Map<String, Double> dropsByReason() {
        java.util.Map<String, Double> m = new java.util.TreeMap<>();
        for (Counter c : runtime.registry().find(MetricNames.DROPS).counters()) {
            m.merge(c.getId().getTag("reason"), c.count(), Double::sum);
        }
        return m;
    }

    /** Reads and discards what is queued on {@code c} (answers a test never read fill its buffer). */
    public static void drain(DatagramSocket c) throws IOException {
        c.setSoTimeout(50);
        try {
            while (true) {
                c.receive(new DatagramPacket(new byte[9000], 9000));
            }
        } catch (java.net.SocketTimeoutException empty) {
            c.setSoTimeout(3000);
        }
    }

    /** The admin, data-dir and event-loop lines every harness configuration starts with. */
    protected static String globals(java.nio.file.Path dir) throws IOException {
        return "mclb admin 127.0.0.1 " + io.mclb.testing.Ports.freeUdp("127.0.0.1") + "\n"
                + "mclb data-dir " + dir + "\n"
                + "mclb sticky entries 10000\n"
                + "mclb event-loops 1\n";
    }

    @Override
    public void close() throws Exception {
        clients.forEach(DatagramSocket::close);
        if (runtime != null) {
            runtime.close();
        }
    }
}
