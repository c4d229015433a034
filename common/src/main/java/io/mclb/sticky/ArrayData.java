package io.mclb.sticky;

import net.openhft.chronicle.algo.hashing.LongHashFunction;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.RandomDataInput;
import net.openhft.chronicle.bytes.RandomDataOutput;
import net.openhft.chronicle.hash.AbstractData;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A Chronicle Map {@link net.openhft.chronicle.hash.Data} over one fixed on-heap array, handed to
 * {@code map.queryContext(Data)} as the input key and to {@code insert}/{@code replaceValue} as the
 * new value. It stands for the bytes Chronicle's default {@code byte[]} marshalling stores (the array
 * itself, no length prefix: the map's sizes are constant), so the hash and the equality below are
 * those of the stored entries and the file format is unchanged.
 *
 * <p>Why not {@code queryContext(BytesStore, offset, size)} and {@code wrapValueBytesAsData}: those
 * re-bind the context's own reference-counted {@code VanillaBytes} to the store at every query and
 * unbind it at close, run the context's open-state check on every {@code bytes()}/{@code size()}
 * call, and hash and compare through the generic checked {@code RandomDataInput} access. Here the
 * hash reads the array directly, the key compare is two or three word reads of the segment, and the
 * value is written to the segment straight from the array.
 *
 * <p>Not thread-safe: one per thread ({@link ChronicleStickyTable}'s scratch), its contents valid
 * for one query.
 */
final class ArrayData extends AbstractData<byte[]> {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private final byte[] array;
    /** Only for {@link #bytes()} (Chronicle's hot path does not call it): wraps {@link #array} once. */
    private final BytesStore<?, ?> store;

    ArrayData(int size) {
        this.array = new byte[size];
        this.store = BytesStore.wrap(array);
    }

    /** Copies {@code src}'s first {@link #size()} octets in: the one copy of a query's key or a write's value. */
    ArrayData copyFrom(byte[] src) {
        System.arraycopy(src, 0, array, 0, array.length);
        return this;
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
        return array.length;
    }

    /** The hash Chronicle's default takes over {@link #bytes()}: the same function over the same octets. */
    @Override
    public long hash(LongHashFunction f) {
        return f.hashBytes(array);
    }

    /**
     * Word by word: {@link RandomDataInput#readLong(long)} and {@code readInt} read in native order,
     * as the array views do.
     */
    @Override
    public boolean equivalent(RandomDataInput source, long sourceOffset) {
        int i = 0;
        int n = array.length;
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            if (source.readLong(sourceOffset + i) != (long) LONGS.get(array, i)) {
                return false;
            }
        }
        if (i + Integer.BYTES <= n) {
            if (source.readInt(sourceOffset + i) != (int) INTS.get(array, i)) {
                return false;
            }
            i += Integer.BYTES;
        }
        for (; i < n; i++) {
            if (source.readByte(sourceOffset + i) != array[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void writeTo(RandomDataOutput target, long targetOffset) {
        target.write(targetOffset, array, 0, array.length);
    }

    /** The view's own array (reused: valid during the query, as {@code Data.get} allows). */
    @Override
    public byte[] get() {
        return array;
    }

    @Override
    public byte[] getUsing(byte[] using) {
        byte[] into = using != null && using.length == array.length ? using : new byte[array.length];
        System.arraycopy(array, 0, into, 0, array.length);
        return into;
    }
}
