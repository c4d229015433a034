package io.netty.channel.epoll;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link ReceiveScratch#batchBuffer}: a batch buffer comes back for a later batch only once every
 * slice handed up from it has been released, empty; while slices live, batches get other buffers;
 * past the kept ones, the allocator's, as before.
 */
class ReceiveScratchTest {
    private static final int CAPACITY = 9001 * 16;

    @Test
    void aBatchBufferIsReusedOnlyOnceItsSlicesAreReleased() {
        assumeTrue(MclbDatagramChannel.isAvailable(), "mclb's epoll channel loads here");
        ReceiveScratch scratch = ReceiveScratch.ofThisLoop();
        PooledByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;

        ByteBuf first = scratch.batchBuffer(alloc, CAPACITY);
        first.writerIndex(400);
        ByteBuf slice = first.retainedSlice(0, 200);
        first.release(); // the batch ends: the slice lives on (a datagram waiting for its flush)

        ByteBuf second = scratch.batchBuffer(alloc, CAPACITY);
        assertThat(second).as("the first still has a live slice").isNotSameAs(first);
        second.release();

        slice.release();
        ByteBuf third = scratch.batchBuffer(alloc, CAPACITY);
        assertThat(third).as("every slice released: reused").isIn(first, second);
        assertThat(third.writerIndex()).as("empty again").isZero();
        assertThat(third.refCnt()).as("the scratch's reference and the batch's").isEqualTo(2);
        third.release();
    }

    @Test
    void pastTheKeptBuffersBatchesOfAnySizeGetTheAllocatorsOwnFreedWithThem() {
        assumeTrue(MclbDatagramChannel.isAvailable(), "mclb's epoll channel loads here");
        ReceiveScratch scratch = ReceiveScratch.ofThisLoop();
        PooledByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
        List<ByteBuf> slices = new ArrayList<>();
        List<ByteBuf> batches = new ArrayList<>();
        for (int i = 0; i < ReceiveScratch.KEPT_BUFFERS + 3; i++) {
            ByteBuf b = scratch.batchBuffer(alloc, CAPACITY);
            assertThat(batches).doesNotContain(b);
            batches.add(b);
            b.writerIndex(100);
            slices.add(b.retainedSlice(0, 100));
            b.release();
        }
        ByteBuf small = scratch.batchBuffer(alloc, 4096 * 16);
        assertThat(small.capacity()).isEqualTo(4096 * 16);
        small.release();
        assertThat(small.refCnt()).as("not kept: freed with its batch").isZero();
        for (int i = ReceiveScratch.KEPT_BUFFERS; i < batches.size(); i++) {
            slices.get(i).release();
            assertThat(batches.get(i).refCnt()).as("beyond the kept ones: freed with its last slice").isZero();
        }
        for (int i = 0; i < ReceiveScratch.KEPT_BUFFERS; i++) {
            slices.get(i).release();
            assertThat(batches.get(i).refCnt()).as("kept").isEqualTo(1);
        }
    }
}
