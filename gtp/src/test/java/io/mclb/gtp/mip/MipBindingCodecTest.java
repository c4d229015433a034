package io.mclb.gtp.mip;

import io.mclb.binding.BindingCodec;
import io.mclb.farm.RealConfigs;
import io.mclb.farm.RealServer;
import io.mclb.time.ManualClock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A Mobile IP binding on the replication stream keeps its granted lifetime; bad bytes are refused. */
class MipBindingCodecTest {
    @Test
    void theGrantedLifetimeTravelsAndTheModuleDeclaresTheCodec() {
        RealServer ha = new RealServer("HA", RealConfigs.real("10.0.1.1", 8), new ManualClock(), null);
        ByteBuf out = Unpooled.buffer();
        MipBindingCodec.INSTANCE.writeExtra(new MipBinding(42, MipBinding.SUB_NAI, ha, 1800, 0), out);
        MipBinding back = MipBindingCodec.INSTANCE.read(
                new BindingCodec.Fields(42, MipBinding.SUB_NAI, ha, 0, 5, 0), out);
        assertThat(back.grantedSeconds()).isEqualTo(1800);
        assertThat(back.idleNs()).isEqualTo(1800_000_000_000L);
        assertThat(MipBindingCodec.INSTANCE.read(new BindingCodec.Fields(42, 1, ha, 0, 5, 0),
                Unpooled.wrappedBuffer(new byte[] {1}))).isNull();
        new MipServiceModule();
        assertThat(MipBinding.KIND.codec()).isSameAs(MipBindingCodec.INSTANCE);
    }
}
