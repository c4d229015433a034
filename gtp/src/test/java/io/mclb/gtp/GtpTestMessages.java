package io.mclb.gtp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.util.HexFormat;

/**
 * Test vectors built from the layouts the peers actually send, origin noted per message:
 * osmo-ggsn 1.9 / sgsnemu (peers.md section 7: IMSI 262010000000001 on v1, 262010000000002 on v0,
 * APN internet, SGSN 127.0.0.10, TEID-C 1, GGSN answer cause 128 with EUA 100.64.1.1) and the scapy
 * script of peers.md section 9 (v2 Create Session Request with IMSI, RAT 6, APN, F-TEID type 10 GRE
 * key 0x1000 at 127.0.0.20; responses cause 73 / 199). IE order and sets follow osmo-ggsn's
 * {@code gtp_create_context_req} / {@code gtp_create_pdp_resp}.
 */
public final class GtpTestMessages {
    private GtpTestMessages() {
    }

    public static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    public static ByteBuf buf(byte[] b) {
        return Unpooled.wrappedBuffer(b);
    }

    /** Minimal byte builder. */
    public static final class Bytes {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        public Bytes u8(int v) {
            out.write(v);
            return this;
        }

        public Bytes u16(int v) {
            return u8(v >>> 8).u8(v);
        }

        public Bytes u24(int v) {
            return u8(v >>> 16).u16(v);
        }

        public Bytes u32(int v) {
            return u16(v >>> 16).u16(v);
        }

        public Bytes raw(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        public Bytes hex(String h) {
            return raw(GtpTestMessages.hex(h));
        }

        public byte[] bytes() {
            return out.toByteArray();
        }

        /** v1/v0 TLV IE. */
        public Bytes tlv(int type, byte[] value) {
            return u8(type).u16(value.length).raw(value);
        }

        /** v2 IE. */
        public Bytes ie2(int type, int instance, byte[] value) {
            return u8(type).u16(value.length).u8(instance).raw(value);
        }
    }

    public static byte[] tbcd(String digits) {
        ByteBuf b = Unpooled.buffer();
        Tbcd.write(b, digits);
        byte[] out = new byte[b.readableBytes()];
        b.readBytes(out);
        return out;
    }

    public static final byte[] APN_INTERNET = Apn.encode("internet");

    /** GTPv1 header (flags 0x32) around {@code ies}. */
    public static byte[] v1(int type, int teid, int seq, byte[] ies) {
        return new Bytes().u8(0x32).u8(type).u16(4 + ies.length).u32(teid).u16(seq).u8(0).u8(0).raw(ies).bytes();
    }

    /** v1 IEs of sgsnemu's Create PDP Context Request (IMSI as given, TEID-C/DI 1, SGSN 127.0.0.10). */
    public static byte[] v1CreateRequestIes(byte[] imsiTbcd8) {
        Bytes b = new Bytes();
        if (imsiTbcd8 != null) {
            b.u8(2).raw(imsiTbcd8);
        }
        return b.u8(14).u8(0)                   // Recovery 0
            .u8(15).u8(1)                       // Selection mode
            .u8(16).u32(1)                      // TEID Data I
            .u8(17).u32(1)                      // TEID Control Plane
            .u8(20).u8(5)                       // NSAPI 5
            .u8(26).u16(0x0800)                 // Charging characteristics
            .tlv(128, hex("f121"))              // EUA: IETF IPv4, dynamic
            .tlv(131, APN_INTERNET)
            .tlv(133, hex("7f00000a"))          // SGSN address for signalling
            .tlv(133, hex("7f00000b"))          // SGSN address for user traffic
            .tlv(134, hex("91947111325476"))    // MSISDN 491711234567
            .tlv(135, hex("000b921f"))          // QoS
            .bytes();
    }

    /** v1 Create PDP Context Request, IMSI 262010000000001, seq 0x1234, TEID 0. */
    public static byte[] v1CreateRequest() {
        return v1(16, 0, 0x1234, v1CreateRequestIes(tbcd8("262010000000001")));
    }

    /** osmo-ggsn's Create PDP Context Response: cause, then (accepted) TEIDs, EUA, GGSN addresses. */
    public static byte[] v1CreateResponse(int cause) {
        Bytes b = new Bytes().u8(1).u8(cause).u8(8).u8(0).u8(14).u8(7);
        if (cause == 128) {
            b.u8(16).u32(0x0101).u8(17).u32(0x0202).u8(127).u32(0xC0FFEE)
                .tlv(128, hex("f121 40400101"))  // 100.64.1.1
                .tlv(133, hex("7f000002"))       // GGSN control plane 127.0.0.2
                .tlv(133, hex("20010db8000000000000000000000002")); // GGSN user plane, IPv6
        }
        return v1(17, 1, 0x1234, b.bytes());
    }

    /** 8 TBCD octets (filler F) of an IMSI. */
    public static byte[] tbcd8(String digits) {
        long raw = Tbcd.encodeRaw(digits);
        return Unpooled.copyLong(raw).array();
    }

    /**
     * sgsnemu --gtpversion 0 Create PDP Context Request: flags 0x1E, seq 7, flow label 0, TID as
     * osmo-ggsn writes it for IMSI 262010000000002 NSAPI 0 (tshark "2000000000102026").
     */
    public static byte[] v0CreateRequest() {
        byte[] ies = new Bytes()
            .u8(6).hex("0b921f")                 // QoS profile (v0, 3 octets)
            .u8(14).u8(0)                        // Recovery
            .u8(15).u8(1)                        // Selection mode
            .u8(16).u16(1)                       // Flow Label Data I
            .u8(17).u16(1)                       // Flow Label Signalling
            .tlv(128, hex("f121"))
            .tlv(131, APN_INTERNET)
            .tlv(133, hex("7f00000b"))
            .tlv(133, hex("7f00000b"))
            .tlv(134, hex("91947111325476"))
            .bytes();
        return new Bytes().u8(0x1E).u8(16).u16(ies.length).u16(7).u16(0).u8(0xFF).u24(0xFFFFFF)
            .hex("0200000000010262").raw(ies).bytes();
    }

    /** v2 header with T = 1. */
    public static byte[] v2(int type, int teid, int seq, byte[] ies) {
        return new Bytes().u8(0x48).u8(type).u16(8 + ies.length).u32(teid).u24(seq).u8(0).raw(ies).bytes();
    }

    /** scapy example (peers.md section 9) plus a Bearer Context with EBI 5: Create Session Request. */
    public static byte[] v2CreateSessionRequest() {
        byte[] bearer = new Bytes().ie2(73, 0, hex("05")).bytes();
        byte[] ies = new Bytes()
            .ie2(1, 0, tbcd("262010000000001"))
            .ie2(82, 0, hex("06"))                              // RAT EUTRAN
            .ie2(87, 0, hex("8a 00001000 7f000014"))            // F-TEID S11 MME, 0x1000, 127.0.0.20
            .ie2(71, 0, APN_INTERNET)
            .ie2(93, 0, bearer)
            .bytes();
        return v2(32, 0, 1, ies);
    }

    /** Create Session Response: cause, and when accepted the PGW S5/S8 control F-TEID (instance 1, type 7, IPv4+IPv6). */
    public static byte[] v2CreateSessionResponse(int cause) {
        Bytes b = new Bytes().ie2(2, 0, new byte[] {(byte) cause, 0});
        if (cause == 16) {
            b.ie2(87, 1, hex("c7 00002000 7f000015 20010db8000000000000000000000015"))
                .ie2(3, 0, hex("09"));
        }
        return v2(33, 0x1000, 1, b.bytes());
    }
}
