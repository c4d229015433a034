package io.mclb.gtp.asn;

/**
 * The R6 messages that steer the MSID life cycle, in both NWG numberings (Wireshark's
 * {@code wimaxasncp} tables): R1.0 v1.2.0/v1.2.1 and R1.0 v1.0.0. The OP ID repeats the role, so
 * a message is classified without knowing the release:
 *
 * <table>
 * <caption>function type, OP ID, message type</caption>
 * <tr><td>MS_PreAttachment_Req</td><td>9, 1 (Request), 1 (v1.2) or 6 (v1.0)</td></tr>
 * <tr><td>MS_PreAttachment_Ack</td><td>9, 3 (Ack), 3 (v1.2) or 8 (v1.0)</td></tr>
 * <tr><td>NetExit_MS_State_Change_Req</td><td>9, 1, 16 (v1.2)</td></tr>
 * <tr><td>Path_Dereg_Req</td><td>3 (Data Path Control), 1, 1 (v1.2) or 2 (v1.0)</td></tr>
 * </table>
 * (v1.0's function 9 messages 1..5 are IM state changes; a v1.0 IM_Entry_State_Change_Req, also
 * 9/1/1, is read as a pre-attachment: for an MS that has an entry it changes nothing, for one that
 * has none it is balanced and stuck like a first message.)
 */
final class AsnMessages {
    private AsnMessages() {
    }

    static boolean isPreAttachmentRequest(int function, int op, int type) {
        return function == AsnHeader.FUNCTION_MS_STATE && op == AsnHeader.OP_REQUEST && (type == 1 || type == 6);
    }

    static boolean isPreAttachmentAck(int function, int op, int type) {
        return function == AsnHeader.FUNCTION_MS_STATE && op == AsnHeader.OP_ACK && (type == 3 || type == 8);
    }

    /** A request whose accepted answer ends the MS's binding: NetExit or Path_Dereg. */
    static boolean endsBinding(int function, int op, int type) {
        if (op != AsnHeader.OP_REQUEST) {
            return false;
        }
        return (function == AsnHeader.FUNCTION_MS_STATE && type == 16)
                || (function == AsnHeader.FUNCTION_DATA_PATH && (type == 1 || type == 2));
    }
}
