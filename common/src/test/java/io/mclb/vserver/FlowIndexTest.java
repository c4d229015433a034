package io.mclb.vserver;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link FlowIndex} against a {@code HashMap} over the same random puts, removes and idle sweeps,
 * with IPv4 keys that share addresses or ports (packed keys that differ in one half only) and IPv6
 * keys: every lookup agrees after every step, sweeps remove exactly what they accept, and the
 * table grows through many sizes.
 */
class FlowIndexTest {
    @Test
    void agreesWithAHashMapThroughRandomPutsRemovesAndSweeps() throws Exception {
        Random rnd = new Random(15);
        List<InetSocketAddress> pool = new ArrayList<>();
        for (int a = 0; a < 40; a++) {
            for (int p = 0; p < 10; p++) {
                pool.add(new InetSocketAddress(InetAddress.getByAddress(new byte[]{10, 0, (byte) (a / 7), (byte) a}), 2123 + p));
            }
        }
        for (int i = 0; i < 30; i++) {
            pool.add(new InetSocketAddress(InetAddress.getByName("2001:db8::" + Integer.toHexString(i + 1)), 1812 + i % 3));
        }
        FlowIndex index = new FlowIndex();
        Map<InetSocketAddress, Flow> model = new HashMap<>();
        for (int step = 0; step < 20_000; step++) {
            // an equal address object, not the same one: lookups must not depend on identity
            InetSocketAddress k = copy(pool.get(rnd.nextInt(pool.size())));
            int op = rnd.nextInt(10);
            if (op < 5) {
                Flow f = new Flow(k, step);
                index.put(k, f);
                model.put(k, f);
            } else if (op < 8) {
                index.remove(k);
                model.remove(k);
            } else if (op == 8 && step % 50 == 0) {
                long cut = step - rnd.nextInt(2000);
                Set<Flow> removed = new HashSet<>();
                index.removeIf(f -> f.createdNs < cut, removed::add);
                Set<Flow> expected = new HashSet<>();
                model.values().removeIf(f -> {
                    boolean old = f.createdNs < cut;
                    if (old) {
                        expected.add(f);
                    }
                    return old;
                });
                assertThat(removed).isEqualTo(expected);
            }
            assertThat(index.get(k)).isSameAs(model.get(k));
            assertThat(index.size()).isEqualTo(model.size());
        }
        for (InetSocketAddress k : pool) {
            assertThat(index.get(copy(k))).as("%s", k).isSameAs(model.get(k));
        }
        List<Flow> all = new ArrayList<>();
        index.forEach(all::add);
        assertThat(all).containsExactlyInAnyOrderElementsOf(model.values());
        index.clear();
        assertThat(index.isEmpty()).isTrue();
        assertThat(index.get(pool.get(0))).isNull();
    }

    private static InetSocketAddress copy(InetSocketAddress a) throws Exception {
        return new InetSocketAddress(InetAddress.getByAddress(a.getAddress().getAddress()), a.getPort());
    }
}
