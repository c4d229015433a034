package io.mclb.server;

import io.mclb.config.ConfigSyntax;
import io.mclb.runtime.RuntimeExtension;
import io.mclb.vserver.ServiceFactory;
import io.mclb.vserver.ServingGate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * What the protocol and HA modules on the class path contribute, found with ServiceLoader:
 * service factories (by {@code service} keyword), configuration syntaxes, and runtime extensions
 * (HA group, replication), whose syntaxes are included in {@link #syntaxes()}.
 */
public record Modules(Map<String, ServiceFactory> services, List<ConfigSyntax> syntaxes,
                      List<RuntimeExtension> extensions) {

    public Modules(Map<String, ServiceFactory> services, List<ConfigSyntax> syntaxes) {
        this(services, syntaxes, List.of());
    }

    public static Modules load() {
        Map<String, ServiceFactory> services = new LinkedHashMap<>();
        List<ConfigSyntax> syntaxes = new ArrayList<>();
        for (ServiceFactory f : ServiceLoader.load(ServiceFactory.class)) {
            syntaxes.add(f.syntax());
            for (String s : f.services()) {
                services.put(s, f);
            }
        }
        for (ConfigSyntax s : ServiceLoader.load(ConfigSyntax.class)) {
            syntaxes.add(s);
        }
        List<RuntimeExtension> extensions = new ArrayList<>();
        for (RuntimeExtension x : ServiceLoader.load(RuntimeExtension.class)) {
            extensions.add(x);
            if (x.syntax() != null) {
                syntaxes.add(x.syntax());
            }
        }
        return new Modules(Map.copyOf(services), List.copyOf(syntaxes), List.copyOf(extensions));
    }

    /**
     * The serving gate of all extensions: a standby-gated virtual server serves when every extension
     * that has a gate says its group is active; with none, always.
     */
    public ServingGate gate() {
        List<ServingGate> gates = extensions.stream().map(RuntimeExtension::gate)
                .filter(java.util.Objects::nonNull).toList();
        if (gates.isEmpty()) {
            return ServingGate.ALWAYS;
        }
        return group -> {
            for (ServingGate g : gates) {
                if (!g.isActive(group)) {
                    return false;
                }
            }
            return true;
        };
    }
}
