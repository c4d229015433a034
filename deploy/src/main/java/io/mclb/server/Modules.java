package io.mclb.server;

import io.mclb.config.ConfigSyntax;
import io.mclb.vserver.ServiceFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * What the protocol and HA modules on the class path contribute, found with ServiceLoader:
 * service factories (by {@code service} keyword) and configuration syntaxes.
 */
public record Modules(Map<String, ServiceFactory> services, List<ConfigSyntax> syntaxes) {

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
        return new Modules(Map.copyOf(services), List.copyOf(syntaxes));
    }
}
