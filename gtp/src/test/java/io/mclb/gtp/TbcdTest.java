package io.mclb.gtp;

import static io.mclb.gtp.GtpTestMessages.buf;
import static io.mclb.gtp.GtpTestMessages.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TbcdTest {
    @Test
    void decodesTheGtpMdExample() {
        // gtp.md section 8: 262011234567890 -> 62 02 11 32 54 76 98 F0
        long packed = Tbcd.decode(buf(hex("62021132547698F0")), 0, 8);
        assertThat(Tbcd.digitCount(packed)).isEqualTo(15);
        assertThat(Tbcd.digits(packed)).isEqualTo(262011234567890L);
        assertThat(Tbcd.toString(packed)).isEqualTo("262011234567890");
    }

    @Test
    void encodesTheGtpMdExample() {
        assertThat(Tbcd.encodeRaw("262011234567890")).isEqualTo(0x62021132547698F0L);
        assertThat(GtpTestMessages.tbcd("262011234567890")).isEqualTo(hex("62021132547698F0"));
        assertThat(GtpTestMessages.tbcd("1234")).isEqualTo(hex("2143"));
    }

    @Test
    void keepsLeadingZerosThroughTheDigitCount() {
        long packed = Tbcd.decode(buf(hex("10ff")), 0, 2);
        assertThat(Tbcd.digitCount(packed)).isEqualTo(2);
        assertThat(Tbcd.toString(packed)).isEqualTo("01");
    }

    @Test
    void evenCountHasNoFiller() {
        long packed = Tbcd.decode(buf(hex("2143")), 0, 2);
        assertThat(Tbcd.toString(packed)).isEqualTo("1234");
    }

    @Test
    void rejectsNonBcdNibbles() {
        assertThat(Tbcd.decode(buf(hex("620A")), 0, 2)).isEqualTo(Tbcd.NOT_BCD);
        assertThat(Tbcd.decode(buf(hex("6E02")), 0, 2)).isEqualTo(Tbcd.NOT_BCD);
    }

    @Test
    void rejectsDigitsAfterTheFiller() {
        assertThat(Tbcd.decode(buf(hex("F162")), 0, 2)).isEqualTo(Tbcd.NOT_BCD);
        assertThat(Tbcd.decode(buf(hex("622F")), 0, 2)).isEqualTo(Tbcd.NOT_BCD);
        assertThat(Tbcd.decode(buf(hex("62FF")), 0, 2)).isNotNegative();
    }

    @Test
    void rejectsMoreThanEightOctets() {
        assertThat(Tbcd.decode(buf(new byte[9]), 0, 9)).isEqualTo(Tbcd.NOT_BCD);
    }

    @Test
    void rawKeyPadsShortValuesWithFiller() {
        assertThat(Tbcd.readRaw(buf(hex("2143")), 0, 2)).isEqualTo(0x2143FFFFFFFFFFFFL);
        assertThat(Tbcd.readRaw(buf(hex("62021132547698F0")), 0, 8)).isEqualTo(Tbcd.encodeRaw("262011234567890"));
    }

    @Test
    void encodeRejectsBadInputAtConfigTime() {
        assertThatThrownBy(() -> Tbcd.encodeRaw("12a")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Tbcd.encodeRaw("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Tbcd.encodeRaw("12345678901234567")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void imsiResultMapsToDropReasons() {
        assertThat(GtpDrops.forImsi(Tbcd.ABSENT)).isSameAs(GtpDrops.IMSI_MISSING);
        assertThat(GtpDrops.forImsi(Tbcd.NOT_BCD)).isSameAs(GtpDrops.IMSI_NOT_BCD);
        assertThat(GtpDrops.forImsi(Tbcd.pack(1, 1))).isNull();
    }
}
