package io.mclb.perf.gtp.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.mclb.ha.replication.ReplicationConfig;
import java.lang.reflect.RecordComponent;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The gtp module derives its TEID node bit ({@code gtp signalling vip}) from the {@code replicate
 * casa} record without depending on {@code ha}: by its two address components. This module sees
 * both, so it holds {@code ha} to that shape.
 */
class ReplicationRecordShapeTest {
    @Test
    void replicateCasaKeepsItsTwoAddressComponents() {
        Map<String, Class<?>> components = Arrays.stream(ReplicationConfig.class.getRecordComponents())
                .collect(Collectors.toMap(RecordComponent::getName, RecordComponent::getType));
        assertThat(components).containsEntry("listenAddress", InetAddress.class)
                .containsEntry("remoteAddress", InetAddress.class);
    }
}
