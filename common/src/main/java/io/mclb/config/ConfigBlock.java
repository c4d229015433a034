package io.mclb.config;

/** The block a configuration line sits in; tells a {@link io.mclb.service.ConfigSyntax} extension where it is. */
public enum ConfigBlock {
    GLOBAL,
    SERVERFARM,
    REAL,
    VSERVER
}
