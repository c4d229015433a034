package io.mclb.service;

import io.mclb.config.Grammar;
import io.mclb.farm.TrackPortSyntax;
import io.mclb.feedback.FeedbackExtension;
import io.mclb.feedback.FeedbackSyntax;
import io.mclb.predictor.RouteMapSyntax;
import io.mclb.probe.BringUpSyntax;
import io.mclb.probe.CustomUdpProbe;
import io.mclb.probe.DnsProbe;
import io.mclb.probe.HttpProbe;
import io.mclb.probe.PingProbe;
import io.mclb.probe.TcpProbe;
import io.mclb.route.AdvertiseSyntax;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;

/**
 * Everything that extends the engine in one process: protocol modules (by {@code service}
 * keyword), configuration syntaxes, probe types and runtime extensions (HA group, replication),
 * found with {@link ServiceLoader}, plus the engine's own syntaxes (route maps, load feedback,
 * bring-up, track-port, advertise), probe types (ping, tcp, custom udp, http, dns) and runtime
 * extension (load feedback: DFP and KAL-AP).
 */
public record Modules(List<ServiceModule> services, List<ConfigSyntax> syntaxes, List<ProbeFactory> probeTypes,
                      List<RuntimeExtension> extensions) {

    public Modules {
        services = List.copyOf(services);
        syntaxes = List.copyOf(syntaxes);
        probeTypes = List.copyOf(probeTypes);
        extensions = List.copyOf(extensions);
    }

    /** Lines the engine ships as extensions, so that a configuration without them keeps them unknown. */
    private static List<ConfigSyntax> engineSyntaxes() {
        return List.of(new RouteMapSyntax(), new FeedbackSyntax(), new BringUpSyntax(), new TrackPortSyntax(),
                new AdvertiseSyntax(), new io.mclb.overload.OverloadSyntax());
    }

    /** The probe types every runtime has, whatever modules are loaded (IOS SLB's own types). */
    private static List<ProbeFactory> engineProbeTypes() {
        return List.of(new PingProbe(), new TcpProbe(), new CustomUdpProbe(), new HttpProbe(), new DnsProbe());
    }

    /** What the engine runs beside the balancer in every process: load feedback (DFP, KAL-AP). */
    private static List<RuntimeExtension> engineExtensions() {
        return List.of(new FeedbackExtension());
    }

    /** Everything on the class path. */
    public static Modules load() {
        List<ServiceModule> services = new ArrayList<>();
        ServiceLoader.load(ServiceModule.class).forEach(services::add);
        List<ConfigSyntax> syntaxes = new ArrayList<>();
        ServiceLoader.load(ConfigSyntax.class).forEach(syntaxes::add);
        List<ProbeFactory> probes = new ArrayList<>();
        ServiceLoader.load(ProbeFactory.class).forEach(probes::add);
        List<RuntimeExtension> extensions = new ArrayList<>();
        ServiceLoader.load(RuntimeExtension.class).forEach(extensions::add);
        return assemble(services, syntaxes, probes, extensions);
    }

    /** These modules and extensions only, with the engine's own lines (tests, tools). */
    public static Modules of(List<ServiceModule> services, List<RuntimeExtension> extensions) {
        return assemble(services, List.of(), List.of(), extensions);
    }

    /** The engine's lines and probe types plus {@code probeTypes} (tests, tools). */
    public static Modules withProbeTypes(List<ProbeFactory> probeTypes) {
        return assemble(List.of(), List.of(), probeTypes, List.of());
    }

    public static Modules of(ServiceModule... services) {
        return of(List.of(services), List.of());
    }

    private static Modules assemble(List<ServiceModule> services, List<ConfigSyntax> syntaxes,
                                    List<ProbeFactory> probes, List<RuntimeExtension> extensions) {
        List<ConfigSyntax> allSyntaxes = new ArrayList<>(engineSyntaxes());
        List<ProbeFactory> allProbes = new ArrayList<>(engineProbeTypes());
        allProbes.addAll(probes);
        for (ServiceModule m : services) {
            allSyntaxes.add(m.syntax());
            allProbes.addAll(m.probeTypes());
        }
        allSyntaxes.addAll(syntaxes);
        List<RuntimeExtension> allExtensions = new ArrayList<>(engineExtensions());
        allExtensions.addAll(extensions);
        for (RuntimeExtension x : allExtensions) {
            if (x.syntax() != null) {
                allSyntaxes.add(x.syntax());
            }
        }
        return new Modules(services, allSyntaxes, allProbes, allExtensions);
    }

    /** The protocol module of each {@code service} keyword. */
    public Map<String, ServiceModule> byService() {
        Map<String, ServiceModule> out = new LinkedHashMap<>();
        for (ServiceModule m : services) {
            for (String s : m.services()) {
                ServiceModule other = out.putIfAbsent(s, m);
                if (other != null && other != m) {
                    throw new IllegalStateException("service " + s + " is served by two modules: "
                            + other.getClass().getName() + " and " + m.getClass().getName());
                }
            }
        }
        return out;
    }

    /** What the configuration parser knows beyond the engine's lines. */
    public Grammar grammar() {
        return Grammar.of(syntaxes, probeTypes);
    }

    /**
     * The serving gate of all extensions: a standby-gated virtual server serves when every extension
     * that has a gate says its group is active; with none, always.
     */
    public ServingGate gate() {
        List<ServingGate> gates = extensions.stream().map(RuntimeExtension::gate).filter(Objects::nonNull).toList();
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
