package io.mclb.gtp;

import io.netty.buffer.ByteBuf;

/**
 * The structure check of a Traffic Flow Template (3GPP TS 24.008 section 10.5.6.12), the value of
 * the v1 TFT IE (137), the v2 Bearer TFT (84) and Traffic Aggregate Description (85): every
 * packet filter and parameter inside the IE, nothing left over. Reads only.
 * <pre>
 *  octet 1: TFT operation code (bits 8-6) | E (bit 5) | number of packet filters (bits 4-1)
 *  codes 1 create, 3 add, 4 replace (and 0, 7, which Wireshark parses the same way):
 *      per filter: identifier/direction (1) | precedence (1) | length (1) | contents
 *  code 5 delete packet filters: per filter one identifier octet
 *  codes 2 delete TFT, 6 no TFT operation: no filters (the count is 0)
 *  then, when E = 1, parameters: identifier (1) | length (1) | contents, to the end
 * </pre>
 */
public final class TrafficFlowTemplate {
    private static final int DELETE_TFT = 2;
    private static final int DELETE_FILTERS = 5;
    private static final int NO_OPERATION = 6;

    private TrafficFlowTemplate() {
    }

    /** Whether the {@code len} octets at {@code offset} are exactly one well-formed TFT. */
    public static boolean isWellFormed(ByteBuf buf, int offset, int len) {
        if (len < 1) {
            return false;
        }
        int end = offset + len;
        int first = buf.getByte(offset) & 0xFF;
        int op = first >>> 5;
        boolean parameters = (first & 0x10) != 0;
        int filters = first & 0x0F;
        int p = offset + 1;
        if (op == DELETE_TFT || op == NO_OPERATION) {
            if (filters != 0) {
                return false;
            }
        } else if (op == DELETE_FILTERS) {
            p += filters;
        } else {
            for (int i = 0; i < filters; i++) {
                if (p + 3 > end) {
                    return false;
                }
                p += 3 + (buf.getByte(p + 2) & 0xFF);
            }
        }
        if (p > end) {
            return false;
        }
        if (!parameters) {
            return p == end;
        }
        while (p < end) {
            if (p + 2 > end) {
                return false;
            }
            p += 2 + (buf.getByte(p + 1) & 0xFF);
        }
        return p == end;
    }
}
