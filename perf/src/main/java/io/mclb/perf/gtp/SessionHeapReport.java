package io.mclb.perf.gtp;

import io.mclb.binding.BindingCodec;
import io.mclb.binding.BindingTable;
import io.mclb.config.RealConfig;
import io.mclb.farm.RealServer;
import io.mclb.gtp.lb.GtpServiceModule;
import io.mclb.gtp.lb.GtpSession;
import io.mclb.time.ManualClock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.net.InetAddress;

/**
 * Heap per GTP session: fills a {@link BindingTable} with N sessions (as an HA standby receives
 * them, through the kind's codec: IMSI owner, NSAPI 5, a TEID alias, one GGSN's IPv4 signalling
 * address) and prints the heap in use after a full collection before and after, per session.
 * Public API only, so the same source measures any build. Usage:
 * {@code java -cp perf/target/benchmarks.jar io.mclb.perf.gtp.SessionHeapReport [sessions]}.
 * A report tool, so it prints to stdout.
 */
public final class SessionHeapReport {
    private SessionHeapReport() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        new GtpServiceModule(); // registers the session codec on its binding kind
        BindingCodec<GtpSession> codec = GtpSession.KIND.codec();
        ManualClock clock = new ManualClock();
        RealServer ggsn = new RealServer("F", RealConfig.defaults(InetAddress.getByName("10.0.0.21"), 0, null)
                .withWeight(8).withInService(true), clock, null);
        ByteBuf extra = Unpooled.buffer(5).writeByte(4).writeBytes(new byte[] {10, 0, 0, 21});
        long idleNs = 3_600_000_000_000L;
        BindingTable<GtpSession> table = new BindingTable<>(GtpSession.KIND);
        long before = usedAfterGc();
        for (int i = 0; i < n; i++) {
            extra.readerIndex(0);
            long imsiRaw = 0x2620100000000000L + i;
            GtpSession s = codec.read(new BindingCodec.Fields(imsiRaw, 5, ggsn, 0x1000_0000L + i, 0, idleNs), extra);
            table.open(s);
        }
        long after = usedAfterGc();
        System.out.printf("sessions=%d heap_before=%d heap_after=%d bytes_per_session=%.1f (table size %d)%n",
                n, before, after, (after - before) / (double) n, table.size());
    }

    private static long usedAfterGc() throws InterruptedException {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
