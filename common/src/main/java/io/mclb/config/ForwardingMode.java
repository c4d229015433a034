package io.mclb.config;

/** DESIGN section 3: how mclb talks to reals. */
public enum ForwardingMode {
    /** mclb's own source address toward reals; ids made unique per path and restored. */
    PROXY,
    /** the real sees the client's address (IP_TRANSPARENT); not built yet, refused by the parser. */
    TRANSPARENT
}
