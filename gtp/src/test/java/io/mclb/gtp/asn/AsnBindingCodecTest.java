package io.mclb.gtp.asn;

import io.mclb.binding.BindingCodec;
import io.mclb.farm.RealConfigs;
import io.mclb.farm.RealServer;
import io.mclb.time.ManualClock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** An ASN MSID binding is all common fields: nothing extra on the wire, and extra bytes are refused. */
class AsnBindingCodecTest {
    @Test
    void anMsidBindingNeedsNoExtraBytesAndTheModuleDeclaresTheCodec() {
        RealServer gw = new RealServer("ASN", RealConfigs.real("10.0.2.1", 8), new ManualClock(), null);
        ByteBuf out = Unpooled.buffer();
        AsnBindingCodec.INSTANCE.writeExtra(new AsnBinding(0x0011223344556677L, gw, 0, 600_000_000_000L), out);
        assertThat(out.readableBytes()).isZero();
        AsnBinding back = AsnBindingCodec.INSTANCE.read(
                new BindingCodec.Fields(0x0011223344556677L, 0, gw, 0, 5, 600_000_000_000L), out);
        assertThat(back.msid()).isEqualTo(0x0011223344556677L);
        assertThat(back.idleNs()).isEqualTo(600_000_000_000L);
        assertThat(AsnBindingCodec.INSTANCE.read(new BindingCodec.Fields(1, 0, gw, 0, 5, 1),
                Unpooled.wrappedBuffer(new byte[] {1}))).isNull();
        new AsnServiceModule();
        assertThat(AsnBinding.KIND.codec()).isSameAs(AsnBindingCodec.INSTANCE);
    }
}
