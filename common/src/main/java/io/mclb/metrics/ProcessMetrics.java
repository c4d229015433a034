package io.mclb.metrics;

import io.mclb.net.Transports;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmHeapPressureMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/**
 * The meters of the mclb process itself, bound once to the registry the runtime builds:
 * {@code mclb_build_info} and {@code mclb_info}, and Micrometer's JVM and process binders
 * ({@code jvm_*}, {@code process_*}, {@code system_*}). Close it before the registry: the GC
 * binder keeps JMX notification listeners, which would outlive a closed runtime (tests start many).
 */
public final class ProcessMetrics implements AutoCloseable {
    private final JvmGcMetrics gc = new JvmGcMetrics();
    /** jvm_gc_overhead exists from the start; the GC pause timer only after the first collection */
    private final JvmHeapPressureMetrics heapPressure = new JvmHeapPressureMetrics();

    public ProcessMetrics(MeterRegistry registry) {
        Gauge.builder(MetricNames.BUILD_INFO, () -> 1).description("1; the build (version as 'mclb -V' prints it)")
                .tag("version", BuildInfo.version()).tag("commit", BuildInfo.commit()).tag("java", BuildInfo.java())
                .register(registry);
        Gauge.builder(MetricNames.INFO, () -> 1).description("mclb build and transport")
                .tag("version", BuildInfo.version()).tag("transport", Transports.active().keyword())
                .register(registry);
        new JvmInfoMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        heapPressure.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
    }

    @Override
    public void close() {
        gc.close();
        heapPressure.close();
    }
}
