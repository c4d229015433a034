package io.mclb.radius.codec;

import io.mclb.net.DropReason;

/** Every reason the RADIUS codec gives for dropping a datagram, declared once (labels of {@code mclb_drops_total}). */
public final class RadiusDrops {
    /** Fewer than 20 octets, or fewer octets than the Length field says (RFC 2865 section 3: discard). */
    public static final DropReason SHORT_PACKET = DropReason.of("radius_short_packet");
    /** Length field outside 20..4096 (RFC 2865 section 3). */
    public static final DropReason BAD_LENGTH = DropReason.of("radius_bad_length");
    /** An attribute whose length octet is 0 or 1 (RFC 2865 section 5: length includes type and length). */
    public static final DropReason BAD_ATTRIBUTE_LENGTH = DropReason.of("radius_bad_attribute_length");
    /** An attribute running past the Length field. */
    public static final DropReason ATTRIBUTE_OVERRUN = DropReason.of("radius_attribute_overrun");
    /**
     * A Vendor-Specific too short for its Vendor-Id, or whose sub-attributes do not tile its value
     * for a vendor whose layout is known ({@link RadiusAttributeRules}).
     */
    public static final DropReason BAD_VENDOR_SPECIFIC = DropReason.of("radius_bad_vendor_specific");
    /** Framed-IP-Address or Acct-Status-Type not 4 octets, User-Name or Calling-Station-Id empty ({@link RadiusAttributeRules}). */
    public static final DropReason BAD_ATTRIBUTE_VALUE_LENGTH = DropReason.of("radius_bad_attribute_value_length");
    /** Message-Authenticator whose length is not 18, or that appears twice (RFC 2869 section 5.14). */
    public static final DropReason BAD_MESSAGE_AUTHENTICATOR_ATTRIBUTE = DropReason.of("radius_bad_message_authenticator_attribute");
    /** Request or Response Authenticator does not verify with the shared secret. */
    public static final DropReason BAD_AUTHENTICATOR = DropReason.of("radius_bad_authenticator");
    /** Message-Authenticator does not verify (RFC 2869 section 5.14: silently discard). */
    public static final DropReason BAD_MESSAGE_AUTHENTICATOR = DropReason.of("radius_bad_message_authenticator");
    /**
     * Message-Authenticator required but absent (Status-Server, RFC 5997 section 3; EAP-Message, RFC
     * 3579 3.2; any Access-Request where the virtual server requires it from its NASes).
     */
    public static final DropReason MISSING_MESSAGE_AUTHENTICATOR = DropReason.of("radius_missing_message_authenticator");
    /**
     * An AAA's answer to an Access-Request without Message-Authenticator where the virtual server
     * requires one ({@code radius require message-authenticator}): unsigned, it is what a
     * BlastRADIUS forgery (CVE-2024-3596) looks like, and what an AAA from before 2024 sends.
     */
    public static final DropReason RESPONSE_MISSING_MESSAGE_AUTHENTICATOR =
            DropReason.of("radius_response_missing_message_authenticator");
    /** User-Password / salted attribute whose ciphertext length is not a multiple of 16 or too long. */
    public static final DropReason BAD_HIDDEN_ATTRIBUTE = DropReason.of("radius_bad_hidden_attribute");

    /** A code this codec cannot re-sign (unknown, or a response where a request was expected). */
    public static final DropReason UNSUPPORTED_CODE = DropReason.of("radius_unsupported_code");

    /** A request from an address no {@code mclb radius client} line covers. */
    public static final DropReason UNKNOWN_CLIENT = DropReason.of("radius_unknown_client");
    /** A real's response whose Response Authenticator or Message-Authenticator does not verify with the real's secret. */
    public static final DropReason BAD_RESPONSE_AUTHENTICATOR = DropReason.of("radius_bad_response_authenticator");
    /** A request to a real that has no {@code mclb radius key} (validation normally prevents it). */
    public static final DropReason NO_REAL_SECRET = DropReason.of("radius_no_real_secret");
    /** A code the balancer does not forward (a response sent to the virtual address, Status-Client...). */
    public static final DropReason NOT_A_REQUEST = DropReason.of("radius_not_a_request");

    /** A real's answer whose code does not answer the request's code (an Accounting-Response to an Access-Request...). */
    public static final DropReason RESPONSE_CODE_MISMATCH = DropReason.of("radius_response_code_mismatch");
    /**
     * A request to a virtual server a reload made pass-through while its listeners, started as a
     * re-signing proxy, still rewrite identifiers (which a pass-through request must keep): it
     * serves again once the listeners restart.
     */
    public static final DropReason PASS_THROUGH_NEEDS_RESTART = DropReason.of("radius_pass_through_needs_restart");

    private RadiusDrops() {
    }
}
