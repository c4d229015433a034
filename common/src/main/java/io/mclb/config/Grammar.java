package io.mclb.config;

import io.mclb.service.ConfigSyntax;
import io.mclb.service.ProbeFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the parser knows beyond the engine's own lines: the modules' {@link ConfigSyntax}es and the
 * probe types ({@code ip slb probe NAME TYPE}) by their TYPE word.
 */
public record Grammar(List<ConfigSyntax> syntaxes, Map<String, ProbeFactory> probeTypes) {
    public Grammar {
        syntaxes = List.copyOf(syntaxes);
        probeTypes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(probeTypes));
    }

    public static Grammar of(List<ConfigSyntax> syntaxes) {
        return new Grammar(syntaxes, Map.of());
    }

    public static Grammar of(List<ConfigSyntax> syntaxes, List<ProbeFactory> probeTypes) {
        Map<String, ProbeFactory> byType = new LinkedHashMap<>();
        for (ProbeFactory f : probeTypes) {
            ProbeFactory other = byType.putIfAbsent(f.type(), f);
            if (other != null && other != f) {
                throw new IllegalStateException("probe type " + f.type() + " is provided twice: "
                        + other.getClass().getName() + " and " + f.getClass().getName());
            }
        }
        return new Grammar(syntaxes, byType);
    }
}
