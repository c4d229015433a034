package io.mclb.perf.predictor;

import io.mclb.config.RealConfig;
import io.mclb.farm.RealServer;
import io.mclb.farm.RealStateListener;
import io.mclb.predictor.Predictor;
import io.mclb.predictor.WeightedLeastConns;
import io.mclb.predictor.WeightedRoundRobin;
import io.mclb.time.NanoClock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.TimeUnit;

/**
 * Cost of one predictor decision (choose only, no acquire) over farms of 3, 16 and 128 in-service
 * reals with mixed weights and a spread of active connections. 16 is the largest farm WRR walks
 * on the fly; 128 uses its cached prefix sums.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PredictorBenchmark {
    @Param({"3", "16", "128"})
    int reals;

    private RealServer[] farm;
    private final Predictor wrr = new WeightedRoundRobin();
    private final Predictor wlc = new WeightedLeastConns();
    private long cursor;
    private long nowNs;

    @Setup
    public void setup() throws UnknownHostException {
        NanoClock clock = NanoClock.system();
        nowNs = clock.nanoTime();
        farm = new RealServer[reals];
        for (int i = 0; i < reals; i++) {
            InetAddress ip = InetAddress.getByAddress(new byte[]{10, 0, (byte) (i >> 8), (byte) i});
            RealConfig c = RealConfig.defaults(ip, 0, null).withWeight(1 + i % 8).withInService(true);
            farm[i] = new RealServer("bench", c, clock, RealStateListener.NONE);
            for (int k = 0; k < (i * 7) % 13; k++) {
                farm[i].tryAcquire(nowNs, false);
            }
        }
    }

    @Benchmark
    public int weightedRoundRobin() {
        return wrr.choose(farm, cursor++, nowNs, null, false);
    }

    @Benchmark
    public int weightedLeastConns() {
        return wlc.choose(farm, cursor++, nowNs, null, false);
    }
}
