package dev.redsim.simulator;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An in-process start's loop is running, with its thread's allocator cache made, before anything is registered with it
 * (decision 0047): the first connection's first read then finds the cache instead of making it while its client waits.
 */
class NettyStartTest {
    @Test
    void theLoopHasItsAllocatorCacheBeforeItsFirstTaskFromOutside() throws Exception {
        NettyStart start = NettyStart.inBackground(false);
        EventLoopGroup group = start.loops().engine();
        try {
            // the first task from outside: without the loop's own warm-up it runs on a thread that never allocated
            boolean cached = group.submit(NettyStartTest::hasCache).get(10, TimeUnit.SECONDS);
            assertThat(cached).as("the loop thread's allocator cache, before any connection").isTrue();
        } finally {
            NettyStart.stopThreads(group);
        }
    }

    @SuppressWarnings("deprecation") // the one public question Netty answers about the calling thread's cache
    private static boolean hasCache() {
        return ((PooledByteBufAllocator) io.netty.buffer.ByteBufAllocator.DEFAULT).hasThreadLocalCache();
    }
}
