package io.mclb.perf.overload;

import io.mclb.overload.ClientRateLimiter;
import io.mclb.sticky.Hashing;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.TimeUnit;

/**
 * Cost of one {@code synguard} admission (one bucket lookup in the fixed table) for a session
 * start, against a baseline of hashing the client address once (what the transaction table does
 * for every request anyway): a client within its budget, a flooder over it, and 1,000 clients in
 * turn (the table's probe runs populated).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SynGuardBenchmark {
    private final ClientRateLimiter generous = new ClientRateLimiter(Long.MAX_VALUE, 100);
    private final ClientRateLimiter strict = new ClientRateLimiter(5, 5000);
    private final ClientRateLimiter many = new ClientRateLimiter(Long.MAX_VALUE, 100);
    private InetAddress one;
    private final InetAddress[] clients = new InetAddress[1000];
    private int next;
    private long nowNs;

    @Setup
    public void setup() throws UnknownHostException {
        one = InetAddress.getByName("10.1.2.3");
        for (int i = 0; i < clients.length; i++) {
            clients[i] = InetAddress.getByAddress(new byte[] {10, 2, (byte) (i >> 8), (byte) i});
        }
        nowNs = System.nanoTime();
    }

    @Benchmark
    public long baselineHashTheAddress() {
        return Hashing.fmix64(one.hashCode());
    }

    @Benchmark
    public boolean withinBudget() {
        return generous.admit(one, nowNs);
    }

    @Benchmark
    public boolean overBudget() {
        return strict.admit(one, nowNs);
    }

    @Benchmark
    public boolean thousandClients() {
        InetAddress c = clients[next];
        next = next == clients.length - 1 ? 0 : next + 1;
        return many.admit(c, nowNs);
    }
}
