package io.mclb.config;

import java.util.List;
import java.util.Map;

/**
 * A whole configuration after parsing and validation: immutable, built once, swapped atomically
 * into the running balancer.
 *
 * @param farms            by name, in file order
 * @param vservers         by name, in file order
 * @param globalExtensions top-level lines and stanzas claimed by modules (HA interfaces, route maps,
 *                         RADIUS clients...), in file order
 * @param warnings         lines deliberately ignored (IOS lines mclb does not need), each named
 * @param sourceFile       the file it was read from, or null for a built-in configuration
 */
public record MclbConfig(GlobalConfig global, Map<String, ServerFarmConfig> farms,
                         Map<String, VirtualServerConfig> vservers, List<ExtensionLine> globalExtensions,
                         List<ConfigError> warnings, java.nio.file.Path sourceFile) {
    public MclbConfig {
        farms = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(farms));
        vservers = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(vservers));
        globalExtensions = List.copyOf(globalExtensions);
        warnings = List.copyOf(warnings);
    }

    public List<ExtensionLine> globalExtensions(String owner) {
        return globalExtensions.stream().filter(e -> e.owner().equals(owner)).toList();
    }

    /** The top-level records of type {@code type}, in file order. */
    public <T> List<T> records(Class<T> type) {
        return ExtensionLine.records(globalExtensions, type);
    }

    /** The probes ({@code ip slb probe NAME TYPE}) by name, in file order. */
    public Map<String, ProbeConfig> probes() {
        Map<String, ProbeConfig> out = new java.util.LinkedHashMap<>();
        for (ProbeConfig p : records(ProbeConfig.class)) {
            out.put(p.name(), p);
        }
        return out;
    }

    /** Copy with another source file (a configuration received from a peer applies as the local file). */
    public MclbConfig withSourceFile(java.nio.file.Path file) {
        return new MclbConfig(global, farms, vservers, globalExtensions, warnings, file);
    }
}
