package io.mclb.perf.gtp;

import io.mclb.gtp.Apn;
import io.mclb.gtp.Tbcd;
import io.mclb.gtp.v0.GtpV0Message;
import io.mclb.gtp.v0.TidLayout;
import io.mclb.gtp.v1.GtpV1Message;
import io.mclb.gtp.v2.GtpV2Message;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Cost of what the GTP inspector does per initial request: wrap (validate header, walk and check
 * every IE, index the interesting ones) and read the IMSI sticky key. Messages are the sgsnemu /
 * scapy layouts of the gtp module's tests (v0 Create PDP Context with the osmo TID, v1 Create PDP
 * Context with 13 IEs, v2 Create Session with IMSI, RAT, F-TEID, APN and a Bearer Context), in
 * direct buffers as the epoll transport delivers them.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class GtpDecodeBenchmark {
    private final GtpV0Message v0 = new GtpV0Message();
    private final GtpV1Message v1 = new GtpV1Message();
    private final GtpV2Message v2 = new GtpV2Message();
    private ByteBuf v0Create;
    private ByteBuf v1Create;
    private ByteBuf v2Create;

    @Setup
    public void setUp() {
        byte[] apn = Apn.encode("internet");
        ByteBuf ies0 = Unpooled.buffer()
            .writeByte(6).writeMedium(0x0b921f).writeByte(14).writeByte(0).writeByte(15).writeByte(1)
            .writeByte(16).writeShort(1).writeByte(17).writeShort(1);
        tlv(ies0, 128, new byte[] {(byte) 0xf1, 0x21});
        tlv(ies0, 131, apn);
        tlv(ies0, 133, new byte[] {127, 0, 0, 11});
        tlv(ies0, 133, new byte[] {127, 0, 0, 11});
        v0Create = Unpooled.directBuffer().writeByte(0x1E).writeByte(16).writeShort(ies0.readableBytes())
            .writeShort(7).writeShort(0).writeByte(0xFF).writeMedium(0xFFFFFF).writeLong(0x0200000000010262L)
            .writeBytes(ies0);

        ByteBuf ies1 = Unpooled.buffer()
            .writeByte(2).writeLong(Tbcd.encodeRaw("262010000000001"))
            .writeByte(14).writeByte(0).writeByte(15).writeByte(1).writeByte(16).writeInt(1)
            .writeByte(17).writeInt(1).writeByte(20).writeByte(5).writeByte(26).writeShort(0x0800);
        tlv(ies1, 128, new byte[] {(byte) 0xf1, 0x21});
        tlv(ies1, 131, apn);
        tlv(ies1, 133, new byte[] {127, 0, 0, 10});
        tlv(ies1, 133, new byte[] {127, 0, 0, 11});
        tlv(ies1, 134, new byte[] {(byte) 0x91, (byte) 0x94, 0x71, 0x11, 0x32, 0x54, 0x76});
        tlv(ies1, 135, new byte[] {0x00, 0x0b, (byte) 0x92, 0x1f});
        v1Create = Unpooled.directBuffer().writeByte(0x32).writeByte(16).writeShort(4 + ies1.readableBytes())
            .writeInt(0).writeShort(0x1234).writeShort(0).writeBytes(ies1);

        ByteBuf ies2 = Unpooled.buffer();
        ie2(ies2, 1, 0, new byte[] {0x62, 0x02, 0x01, 0, 0, 0, 0, (byte) 0xF1});
        ie2(ies2, 82, 0, new byte[] {6});
        ie2(ies2, 87, 0, new byte[] {(byte) 0x8a, 0, 0, 0x10, 0, 127, 0, 0, 20});
        ie2(ies2, 71, 0, apn);
        ie2(ies2, 93, 0, new byte[] {73, 0, 1, 0, 5});
        v2Create = Unpooled.directBuffer().writeByte(0x48).writeByte(32).writeShort(8 + ies2.readableBytes())
            .writeInt(0).writeMedium(1).writeByte(0).writeBytes(ies2);
        if (v0Create() == Tbcd.EMPTY_RAW || v1Create() == Tbcd.EMPTY_RAW || v2Create() == Tbcd.EMPTY_RAW) {
            throw new IllegalStateException("benchmark messages do not decode");
        }
    }

    @TearDown
    public void tearDown() {
        v0Create.release();
        v1Create.release();
        v2Create.release();
    }

    private static void tlv(ByteBuf b, int type, byte[] v) {
        b.writeByte(type).writeShort(v.length).writeBytes(v);
    }

    private static void ie2(ByteBuf b, int type, int instance, byte[] v) {
        b.writeByte(type).writeShort(v.length).writeByte(instance).writeBytes(v);
    }

    /** v0 Create PDP Context Request: wrap + IMSI key from the TID. */
    @Benchmark
    public long v0Create() {
        return v0.wrap(v0Create) ? v0.tidImsiRaw(TidLayout.OSMO_GGSN) : Tbcd.EMPTY_RAW;
    }

    /** v1 Create PDP Context Request: wrap + IMSI IE raw key. */
    @Benchmark
    public long v1Create() {
        return v1.wrap(v1Create) ? v1.ies().imsiRaw() : Tbcd.EMPTY_RAW;
    }

    /** v1 as above, plus decoding and validating the IMSI digits. */
    @Benchmark
    public long v1CreateImsiDigits() {
        return v1.wrap(v1Create) ? v1.ies().imsi() : Tbcd.EMPTY_RAW;
    }

    /** v2 Create Session Request: wrap (incl. the Bearer Context's inner IEs) + IMSI raw key. */
    @Benchmark
    public long v2Create() {
        return v2.wrap(v2Create) ? v2.imsiRaw() : Tbcd.EMPTY_RAW;
    }
}
