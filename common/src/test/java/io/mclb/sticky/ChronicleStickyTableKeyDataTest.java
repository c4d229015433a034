package io.mclb.sticky;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import net.openhft.chronicle.algo.hashing.LongHashFunction;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.RandomDataInput;
import net.openhft.chronicle.hash.AbstractData;
import net.openhft.chronicle.hash.Data;
import net.openhft.chronicle.map.ChronicleMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table's own key and value views ({@link ArrayData}) against Chronicle's default {@code byte[]}
 * marshalling: entries stored by either path are found, replaced and removed by the other, in the
 * same file, across closes and reopens (so a data directory written before the views opens and
 * reads the same), and the views' hash and byte equality are those of Chronicle's {@code Data}
 * defaults, which the map's hash lookup and key compare rely on.
 */
class ChronicleStickyTableKeyDataTest {
    private static final long NOW_MS = 1_700_000_000_000L;
    private static final long NOW_S = NOW_MS / 1000;
    private static final int CAPACITY = 10_000;

    @TempDir
    Path dir;

    /** Every kind code, identity lengths 0..16 (the key layout of {@link StickyKey}), random identities. */
    private static List<byte[]> keysOfEveryKindAndLength(SplittableRandom rnd) {
        List<byte[]> keys = new ArrayList<>();
        for (int code = 0; code < 256; code++) {
            for (int len = 0; len <= StickyKey.MAX_IDENTITY; len++) {
                byte[] k = new byte[StickyKey.SIZE];
                k[0] = (byte) code;
                k[1] = (byte) rnd.nextInt(256);
                k[2] = (byte) rnd.nextInt(256);
                k[3] = (byte) len;
                for (int i = 0; i < len; i++) {
                    k[4 + i] = (byte) rnd.nextInt(256);
                }
                keys.add(k);
            }
        }
        return keys;
    }

    private static byte[] valueOf(int i, long expiresS) {
        return new StickyValue().set(1000 + i, NOW_S, expiresS).bytes().clone();
    }

    @Test
    void entriesOfChroniclesDefaultPathAreFoundReplacedAndRemovedThroughTheViewsAndBack() {
        List<byte[]> keys = keysOfEveryKindAndLength(new SplittableRandom(15));
        try (ChronicleMap<byte[], byte[]> map = StickyTables.builder(CAPACITY).createPersistedTo(dir.resolve(StickyTables.DATA_FILE).toFile())) {
            for (int i = 0; i < keys.size(); i++) {
                map.put(keys.get(i), valueOf(i, NOW_S + 600));
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }

        StickyKey key = new StickyKey();
        StickyValue out = new StickyValue();
        try (ChronicleStickyTable table = StickyTables.open(dir, CAPACITY)) {
            assertThat(table.size()).isEqualTo(keys.size());
            for (int i = 0; i < keys.size(); i++) {
                byte[] k = keys.get(i);
                assertThat(table.get(key.copyFrom(k), out, NOW_MS)).as("key %s", Arrays.toString(k)).isTrue();
                assertThat(out.bytes()).isEqualTo(valueOf(i, NOW_S + 600));
                byte[] other = k.clone();
                other[StickyKey.SIZE - 1 - i % StickyKey.SIZE] ^= 0x40; // one octet off, anywhere in the key
                assertThat(table.get(key.copyFrom(other), out, NOW_MS)).as("neighbour of %s", Arrays.toString(k)).isFalse();
            }
            assertThat(table.size(StickyKind.CLIENT_IP)).as("counted by kind at open").isEqualTo(StickyKey.MAX_IDENTITY + 1);
            for (int i = 0; i < keys.size(); i += 2) {
                assertThat(table.put(key.copyFrom(keys.get(i)), new StickyValue().copyFrom(valueOf(i, NOW_S + 900)))).isTrue();
            }
            for (int i = 1; i < keys.size(); i += 4) {
                assertThat(table.remove(key.copyFrom(keys.get(i)), StickyChangeListener.RemoveReason.DELETED)).isTrue();
            }
            StickyValue existing = new StickyValue();
            for (int i = 3; i < keys.size(); i += 4) {
                assertThat(table.putIfAbsent(key.copyFrom(keys.get(i)), new StickyValue().copyFrom(valueOf(i, NOW_S + 900)),
                        existing, NOW_MS)).as("a live entry is present").isFalse();
                assertThat(existing.bytes()).isEqualTo(valueOf(i, NOW_S + 600));
            }
            assertThat(table.size()).as("replacements found the stored keys").isEqualTo(keys.size() - keys.size() / 4);
        }

        try (ChronicleMap<byte[], byte[]> map = StickyTables.builder(CAPACITY).createPersistedTo(dir.resolve(StickyTables.DATA_FILE).toFile())) {
            assertThat(map.longSize()).isEqualTo(keys.size() - keys.size() / 4);
            for (int i = 0; i < keys.size(); i++) {
                byte[] expected = i % 2 == 0 ? valueOf(i, NOW_S + 900) : i % 4 == 1 ? null : valueOf(i, NOW_S + 600);
                assertThat(map.get(keys.get(i))).as("key %d through Chronicle's default path", i).isEqualTo(expected);
            }
            for (int i = 1; i < keys.size(); i += 4) {
                map.put(keys.get(i), valueOf(i, NOW_S + 1200)); // written back by the default path
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }

        try (ChronicleStickyTable table = StickyTables.open(dir, CAPACITY)) {
            assertThat(table.size()).isEqualTo(keys.size());
            for (int i = 1; i < keys.size(); i += 4) {
                assertThat(table.get(key.copyFrom(keys.get(i)), out, NOW_MS)).isTrue();
                assertThat(out.bytes()).isEqualTo(valueOf(i, NOW_S + 1200));
            }
            List<byte[]> walked = new ArrayList<>();
            table.forEach((k, v) -> walked.add(k.bytes().clone()));
            assertThat(walked).as("stored keys octet for octet").containsExactlyInAnyOrderElementsOf(keys);
        }
    }

    @Test
    void viewsHashAndCompareAsChroniclesDataDefaults() {
        SplittableRandom rnd = new SplittableRandom(20);
        LongHashFunction xx = LongHashFunction.xx_r39();
        for (int n = 0; n <= 40; n++) {
            for (int round = 0; round < 20; round++) {
                byte[] bytes = new byte[n];
                for (int i = 0; i < n; i++) {
                    bytes[i] = (byte) rnd.nextInt(256);
                }
                ArrayData view = new ArrayData(n).copyFrom(bytes);
                DefaultData reference = new DefaultData(bytes);
                assertThat(view.hash(xx)).as("hash of %d octets", n).isEqualTo(reference.hash(xx));
                assertThat(view.hash(LongHashFunction.city_1_1())).isEqualTo(reference.hash(LongHashFunction.city_1_1()));
                assertThat(view.hashCode()).isEqualTo(reference.hashCode());
                assertThat(view).isEqualTo(reference);

                int offset = rnd.nextInt(9);
                for (BytesStore<?, ?> store : stores(bytes, offset)) {
                    assertThat(view.equivalent(store, offset)).as("%d octets at %d in %s", n, offset, store.getClass()).isTrue();
                    for (int i = 0; i < n; i++) {
                        byte old = store.readByte(offset + i);
                        store.writeByte(offset + i, (byte) (old ^ (1 << rnd.nextInt(8))));
                        assertThat(view.equivalent(store, offset)).as("octet %d of %d differs", i, n).isFalse();
                        assertThat(reference.equivalent(store, offset)).isFalse();
                        store.writeByte(offset + i, old);
                    }
                    BytesStore<?, ?> written = BytesStore.nativeStoreWithFixedCapacity(n + offset + 8);
                    view.writeTo(written, offset);
                    assertThat(reference.equivalent(written, offset)).as("writeTo").isTrue();
                    written.releaseLast();
                }
                assertThat(view.getUsing(null)).isEqualTo(bytes).isNotSameAs(view.get());
                byte[] using = new byte[n];
                assertThat(view.getUsing(using)).isSameAs(using).isEqualTo(bytes);
            }
        }
    }

    /** {@code bytes} at {@code offset} in a heap store and an off-heap one (the map's segments are off-heap). */
    private static List<BytesStore<?, ?>> stores(byte[] bytes, int offset) {
        byte[] heap = new byte[offset + bytes.length + 8];
        System.arraycopy(bytes, 0, heap, offset, bytes.length);
        BytesStore<?, ?> off = BytesStore.nativeStoreWithFixedCapacity(heap.length);
        off.write(0, heap);
        return List.of(BytesStore.wrap(heap), off);
    }

    /** Chronicle's own defaults of {@link Data#hash} and {@link Data#equivalent} over a wrapped array. */
    private static final class DefaultData extends AbstractData<byte[]> {
        private final byte[] bytes;
        private final BytesStore<?, ?> store;

        DefaultData(byte[] bytes) {
            this.bytes = bytes.clone();
            this.store = BytesStore.wrap(this.bytes);
        }

        @Override
        public RandomDataInput bytes() {
            return store;
        }

        @Override
        public long offset() {
            return 0;
        }

        @Override
        public long size() {
            return bytes.length;
        }

        @Override
        public byte[] get() {
            return bytes;
        }

        @Override
        public byte[] getUsing(byte[] using) {
            return bytes.clone();
        }
    }
}
