package io.mclb.feedback.dfp;

/**
 * Why a DFP stream was refused: the connection is closed, the reason counted
 * ({@code mclb_dfp_refused_total{agent,reason}}), and no weight of the refused message is used.
 * Labels are the Prometheus {@code reason} values.
 */
public enum DfpRefusal {
    /** Version octet is not 1: nothing after it can be trusted. */
    BAD_VERSION("bad_version"),
    /** Message length below the 8-octet header. */
    BAD_LENGTH("bad_length"),
    /** Message length above {@link DfpWire#MAX_MESSAGE_LENGTH}. */
    TOO_LONG("too_long"),
    /** A TLV shorter than its own header or running past the end of its message. */
    TLV_OVERRUN("tlv_overrun"),
    /** A known TLV whose length disagrees with its contents (a Load TLV's host count, a Keep-Alive of another size). */
    BAD_TLV("bad_tlv"),
    /** A password is configured and the message has no Security TLV first, or its digest is wrong. */
    SECURITY("security"),
    /** The peer's stream ended inside a message. */
    TRUNCATED("truncated");

    private final String label;

    DfpRefusal(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
