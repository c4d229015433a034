package io.mclb.radius.codec;

import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;

/**
 * The value lengths RADIUS fixes for the attributes the balancer reads, checked by
 * {@link RadiusPacket#wrap} for every attribute before anything is forwarded (issue 14 item 5:
 * a packet Wireshark calls malformed never reaches a real or a NAS).
 *
 * <ul>
 * <li>Vendor-Specific (RFC 2865 section 5.26, Length &gt;= 7): a Vendor-Id and at least one octet.
 *     For the vendors whose sub-attribute layout is known here the sub-attributes must tile the
 *     value exactly: type, length (&gt;= 2, including both) for Cisco (9), Microsoft (311, RFC 2548),
 *     3GPP2 (5535) and 3GPP (10415, TS 29.061); type, length (&gt;= 3), continuation for WiMAX
 *     (24757); a 3GPP-IMSI sub-attribute holds 6..15 digits. Wireshark's RADIUS dissector reads those vendors the same way and calls a
 *     sub-attribute that does not fit, or a Vendor-Specific too short for its Vendor-Id,
 *     malformed. Other vendors' layouts vary (USR, Lucent, Starent use wider headers): their
 *     value is forwarded as it came.</li>
 * <li>Framed-IP-Address (RFC 2865 section 5.8) and Acct-Status-Type (RFC 2866 section 5.1):
 *     Length 6, a 4-octet value, which the balancer reads as a route and sticky key and as the
 *     accounting event.</li>
 * <li>User-Name (RFC 2865 section 5.1) and Calling-Station-Id (section 5.31): Length &gt;= 3,
 *     sticky keys that must not be empty.</li>
 * </ul>
 */
final class RadiusAttributeRules {
    private RadiusAttributeRules() {
    }

    /** Why the attribute of {@code type} whose value is {@code length} octets at {@code value} is malformed, or null. */
    static DropReason check(ByteBuf buf, int type, int value, int length) {
        return switch (type) {
            case RadiusAttributes.VENDOR_SPECIFIC -> vendorSpecific(buf, value, length);
            case RadiusAttributes.FRAMED_IP_ADDRESS, RadiusAttributes.ACCT_STATUS_TYPE ->
                    length == 4 ? null : RadiusDrops.BAD_ATTRIBUTE_VALUE_LENGTH;
            case RadiusAttributes.USER_NAME, RadiusAttributes.CALLING_STATION_ID ->
                    length >= 1 ? null : RadiusDrops.BAD_ATTRIBUTE_VALUE_LENGTH;
            default -> null;
        };
    }

    /** 3GPP-IMSI (TS 29.061 16.4.7: the IMSI as UTF-8 digits): 6..15 digits (TS 23.003 2.2), as Wireshark's E.212 check wants. */
    private static boolean imsiDigits(ByteBuf buf, int at, int length) {
        if (length < 6 || length > 15) {
            return false;
        }
        for (int i = at; i < at + length; i++) {
            int c = buf.getUnsignedByte(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static DropReason vendorSpecific(ByteBuf buf, int value, int length) {
        if (length < 5) {
            return RadiusDrops.BAD_VENDOR_SPECIFIC;
        }
        long vendor = buf.getUnsignedInt(value);
        int header = vendor == RadiusAttributes.VENDOR_WIMAX ? 3
                : vendor == RadiusAttributes.VENDOR_CISCO || vendor == RadiusAttributes.VENDOR_MICROSOFT
                || vendor == RadiusAttributes.VENDOR_3GPP2 || vendor == RadiusAttributes.VENDOR_3GPP ? 2 : 0;
        if (header == 0) {
            return null;
        }
        int end = value + length;
        for (int s = value + 4; s < end; ) {
            if (end - s < header) {
                return RadiusDrops.BAD_VENDOR_SPECIFIC;
            }
            int slen = buf.getUnsignedByte(s + 1);
            if (slen < header || slen > end - s) {
                return RadiusDrops.BAD_VENDOR_SPECIFIC;
            }
            if (vendor == RadiusAttributes.VENDOR_3GPP && buf.getUnsignedByte(s) == RadiusAttributes.TGPP_IMSI
                    && !imsiDigits(buf, s + 2, slen - 2)) {
                return RadiusDrops.BAD_VENDOR_SPECIFIC;
            }
            s += slen;
        }
        return null;
    }
}
