package io.mclb.feedback.dfp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The DFP codec over bytes written by hand from the structs of Cisco's BSD reference
 * implementation ({@code wire.h}: {@code dfp_msg_header}, {@code dfp_tlv_load},
 * {@code dfp_tlv_load_preference}, {@code dfp_tlv_keepalive}), not from mclb's writer.
 */
class DfpCodecTest {
    private static ByteBuf hex(String h) {
        return Unpooled.wrappedBuffer(HexFormat.of().parseHex(h.replace(" ", "")));
    }

    /** Preference Information, one Load TLV: port 2123, UDP, 2 hosts 10.20.1.11 bind 0 weight 8, 10.20.1.12 bind 3 weight 0. */
    static final String PREF_INFO = "01 00 0101 00000024"
            + " 0002 001c 084b 11 00 0002 0000"
            + " 0a14010b 0000 0008"
            + " 0a14010c 0003 0000";

    @Test
    void readsAPreferenceInformationLaidOutAsTheReferenceImplementationDoes() {
        DfpMessage m = new DfpMessage();
        assertThat(m.wrap(hex(PREF_INFO))).isNull();
        assertThat(m.type()).isEqualTo(DfpWire.PREFERENCE_INFORMATION);
        int at = m.firstTlv();
        assertThat(m.tlvType(at)).isEqualTo(DfpWire.TLV_LOAD);
        assertThat(m.loadPort(at)).isEqualTo(2123);
        assertThat(m.loadProtocol(at)).isEqualTo(17);
        assertThat(m.loadHosts(at)).isEqualTo(2);
        assertThat(HostWeight.text(m.hostAddress(at, 0))).isEqualTo("10.20.1.11");
        assertThat(m.hostWeight(at, 0)).isEqualTo(8);
        assertThat(HostWeight.text(m.hostAddress(at, 1))).isEqualTo("10.20.1.12");
        assertThat(m.hostBindId(at, 1)).isEqualTo(3);
        assertThat(m.hostWeight(at, 1)).isZero();
        assertThat(m.nextTlv(at)).isEqualTo(-1);
    }

    @Test
    void writesTheSameOctetsTheReferenceLayoutGives() {
        ByteBuf out = Unpooled.buffer();
        new DfpWriter().preferenceInformation(out, List.of(
                new HostWeight(0x0a14010b, 2123, 17, 0, 8), new HostWeight(0x0a14010c, 2123, 17, 3, 0)), null);
        assertThat(HexFormat.of().formatHex(bytes(out))).isEqualTo(PREF_INFO.replace(" ", ""));

        ByteBuf p = Unpooled.buffer();
        new DfpWriter().parameters(p, 30, null);
        // dfp_msg_header + dfp_tlv_keepalive {0x0101, 8, 30}
        assertThat(HexFormat.of().formatHex(bytes(p))).isEqualTo("0100030100000010" + "010100080000001e");
    }

    @Test
    void groupsHostsIntoOneLoadTlvPerPortAndProtocol() {
        ByteBuf out = Unpooled.buffer();
        new DfpWriter().preferenceInformation(out, List.of(new HostWeight(1, 2123, 17, 0, 8),
                new HostWeight(2, 2123, 17, 0, 9), new HostWeight(3, 1812, 17, 0, 10)), null);
        DfpMessage m = new DfpMessage();
        assertThat(m.wrap(out)).isNull();
        int first = m.firstTlv();
        int second = m.nextTlv(first);
        assertThat(m.loadHosts(first)).isEqualTo(2);
        assertThat(m.loadPort(second)).isEqualTo(1812);
        assertThat(m.hostWeight(second, 0)).isEqualTo(10);
        assertThat(m.nextTlv(second)).isEqualTo(-1);
    }

    @Test
    void unknownTlvsAreSkippedByTheirLength() {
        // a private-use TLV 0x0500 of 6 octets, then the Load TLV
        String msg = "01 00 0101 0000002a" + " 0500 0006 abcd" + PREF_INFO.substring(PREF_INFO.indexOf(" 0002"));
        DfpMessage m = new DfpMessage();
        assertThat(m.wrap(hex(msg))).isNull();
        assertThat(m.find(DfpWire.TLV_LOAD)).isGreaterThan(0);
        assertThat(m.loadHosts(m.find(DfpWire.TLV_LOAD))).isEqualTo(2);
    }

    @Test
    void inconsistentMessagesAreRefusedByReason() {
        DfpMessage m = new DfpMessage();
        assertThat(m.wrap(hex("02 00 0101 00000008"))).isEqualTo(DfpRefusal.BAD_VERSION);
        assertThat(m.wrap(hex("01 00 0101 00000009"))).as("length says 9, 8 present").isEqualTo(DfpRefusal.BAD_LENGTH);
        assertThat(m.wrap(hex("01 00 0101 0000000c 0002 0010"))).as("TLV runs past the message")
                .isEqualTo(DfpRefusal.TLV_OVERRUN);
        assertThat(m.wrap(hex("01 00 0101 0000000c 0002 0002"))).as("TLV shorter than its header")
                .isEqualTo(DfpRefusal.TLV_OVERRUN);
        assertThat(m.wrap(hex("01 00 0101 0000000a 0002"))).as("half a TLV header").isEqualTo(DfpRefusal.TLV_OVERRUN);
        // Load TLV claims 3 hosts but carries 2
        assertThat(m.wrap(hex(PREF_INFO.replace("0002 0000 0a14010b", "0003 0000 0a14010b"))))
                .isEqualTo(DfpRefusal.BAD_TLV);
        assertThat(m.wrap(hex("01 00 0301 0000000e 0101 0006 0000"))).as("keep-alive of 6 octets")
                .isEqualTo(DfpRefusal.BAD_TLV);
    }

    @Test
    void aSignedMessageVerifiesOnlyWithItsPasswordAndOnlyUnchanged() {
        byte[] pw = "DfpS3cret".getBytes(StandardCharsets.UTF_8);
        ByteBuf out = Unpooled.buffer();
        new DfpWriter().preferenceInformation(out, List.of(new HostWeight(1, 0, 0, 0, 8)), pw);
        DfpMessage m = new DfpMessage();
        assertThat(m.wrap(out)).isNull();
        assertThat(m.tlvType(m.firstTlv())).as("Security TLV first").isEqualTo(DfpWire.TLV_SECURITY);
        DfpSecurity sec = new DfpSecurity();
        assertThat(sec.verify(m, pw)).isTrue();
        assertThat(sec.verify(m, "other".getBytes(StandardCharsets.UTF_8))).isFalse();

        // the digest is MD5(message with zeroed digest || password), computed here independently
        byte[] raw = bytes(out.duplicate());
        byte[] digest = java.util.Arrays.copyOfRange(raw, 20, 36);
        java.util.Arrays.fill(raw, 20, 36, (byte) 0);
        assertThat(md5(raw, pw)).isEqualTo(digest);

        out.setShort(out.writerIndex() - 2, 9);
        assertThat(sec.verify(m, pw)).as("a weight changed in transit").isFalse();
    }

    @Test
    void passwordRollOverAcceptsBothDuringTheWindowAndSignsWithTheOldOne() {
        byte[] oldPw = "old".getBytes(StandardCharsets.UTF_8);
        byte[] newPw = "new".getBytes(StandardCharsets.UTF_8);
        DfpPasswords p = DfpPasswords.of("old").next("new", 180, 0);
        DfpSecurity sec = new DfpSecurity();
        long during = 179_000_000_000L;
        long after = 180_000_000_000L;
        assertThat(p.signing(during)).isEqualTo(oldPw);
        assertThat(p.signing(after)).isEqualTo(newPw);
        assertThat(p.accepts(signed(oldPw), sec, during)).isTrue();
        assertThat(p.accepts(signed(newPw), sec, during)).isTrue();
        assertThat(p.accepts(signed(null), sec, during)).as("unsigned").isFalse();
        assertThat(p.accepts(signed(oldPw), sec, after)).as("old after the window").isFalse();
        assertThat(p.accepts(signed(newPw), sec, after)).isTrue();

        DfpPasswords fromNone = DfpPasswords.NONE.next("new", 60, 0);
        assertThat(fromNone.accepts(signed(null), sec, 1)).as("none -> PW: unsigned accepted in the window").isTrue();
        assertThat(fromNone.accepts(signed(null), sec, 61_000_000_000L)).isFalse();
        assertThat(DfpPasswords.of("x").next("x", 60, 0)).as("unchanged: no window").isEqualTo(DfpPasswords.of("x"));
        assertThat(DfpPasswords.NONE.accepts(signed(null), sec, 0)).isTrue();
    }

    private static DfpMessage signed(byte[] pw) {
        ByteBuf out = Unpooled.buffer();
        new DfpWriter().preferenceInformation(out, List.of(new HostWeight(1, 0, 0, 0, 8)), pw);
        DfpMessage m = new DfpMessage();
        assertThat(m.wrap(out)).isNull();
        return m;
    }

    private static byte[] md5(byte[] a, byte[] b) {
        try {
            java.security.MessageDigest md = java.security.MessageDigest.getInstance("MD5");
            md.update(a);
            return md.digest(b);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] bytes(ByteBuf b) {
        byte[] out = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), out);
        return out;
    }
}
