package io.mclb.feedback.dfp;

import io.netty.buffer.ByteBuf;

import java.util.List;

import static io.mclb.feedback.dfp.DfpWire.*;

/**
 * Writes DFP messages (layouts in {@link DfpWire} and {@link DfpMessage}). A message is
 * {@link #begin begun} (header, and a zeroed Security TLV when a password signs it), its TLVs
 * appended, and {@link #end ended} (length patched, digest filled). Everything goes into the
 * caller's buffer; nothing else is allocated.
 */
public final class DfpWriter {
    private final DfpSecurity security = new DfpSecurity();

    /** Starts a message of {@code type}; {@code password} null = unsigned. @return its start index */
    public int begin(ByteBuf out, int type, byte[] password) {
        int start = out.writerIndex();
        out.writeByte(VERSION).writeByte(0).writeShort(type).writeInt(0);
        if (password != null) {
            out.writeShort(TLV_SECURITY).writeShort(SECURITY_TLV_LENGTH).writeInt(SECURITY_ALGORITHM_MD5).writeInt(0)
                    .writeZero(16);
        }
        return start;
    }

    /** Patches the length of the message begun at {@code start} and signs it if it has a Security TLV. */
    public void end(ByteBuf out, int start, byte[] password) {
        out.setInt(start + 4, out.writerIndex() - start);
        if (password != null) {
            security.sign(out, start, password);
        }
    }

    /** DFP Parameters with the Keep-Alive TLV (manager to agent): the longest gap allowed between reports. */
    public void parameters(ByteBuf out, long keepAliveSeconds, byte[] password) {
        int start = begin(out, DFP_PARAMETERS, password);
        out.writeShort(TLV_KEEP_ALIVE).writeShort(KEEP_ALIVE_TLV_LENGTH).writeInt((int) keepAliveSeconds);
        end(out, start, password);
    }

    /** A message without TLVs (BindID Request, BindID Change Notify). */
    public void empty(ByteBuf out, int type, byte[] password) {
        end(out, begin(out, type, password), password);
    }

    /**
     * Preference Information: one Load TLV per (port, protocol) group, in the order the weights come
     * (the caller groups them: {@link HostWeight#sameGroup}).
     */
    public void preferenceInformation(ByteBuf out, List<HostWeight> weights, byte[] password) {
        int start = begin(out, PREFERENCE_INFORMATION, password);
        int i = 0;
        while (i < weights.size()) {
            HostWeight first = weights.get(i);
            int j = i;
            while (j < weights.size() && weights.get(j).sameGroup(first) && j - i < 8190) {
                j++;
            }
            int n = j - i;
            out.writeShort(TLV_LOAD).writeShort(LOAD_TLV_FIXED + LOAD_HOST_LENGTH * n).writeShort(first.port())
                    .writeByte(first.protocol()).writeByte(0).writeShort(n).writeShort(0);
            for (int k = i; k < j; k++) {
                HostWeight h = weights.get(k);
                out.writeInt(h.address()).writeShort(h.bindId()).writeShort(h.weight());
            }
            i = j;
        }
        end(out, start, password);
    }

    /**
     * BindID Report: a table TLV per real server with bind IDs, then the all-zero table TLV that
     * ends the report (draft; also sent alone when there is nothing to report). mclb reports none.
     */
    public void bindIdReport(ByteBuf out, byte[] password) {
        int start = begin(out, BIND_ID_REPORT, password);
        out.writeShort(TLV_BIND_ID_TABLE).writeShort(BIND_TABLE_FIXED).writeZero(BIND_TABLE_FIXED - TLV_HEADER_LENGTH);
        end(out, start, password);
    }
}
