package dev.redsim.simulator.protocol;

import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The decoder switches a connection to 1 MB reads while a big argument arrives. Netty makes a channel's read handle
 * once, from the allocator configured at the start: with a FixedRecvByteBufAllocator the switch changed the
 * configuration but not the reads (16 KB each, whatever was configured later), which this test shows.
 */
class ReadSizesTest {
    @Test
    void aChannelsReadsFollowTheSizeConfiguredNow() {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setRecvByteBufAllocator(ReadSizes.READS);
        RecvByteBufAllocator.Handle handle = channel.unsafe().recvBufAllocHandle(); // made once, as Netty does
        handle.reset(channel.config());
        assertThat(handle.guess()).isEqualTo(16 * 1024);

        channel.config().setRecvByteBufAllocator(ReadSizes.BIG_ARG_READS); // what the decoder does for a big argument
        handle.reset(channel.config()); // the start of the next read loop
        assertThat(channel.unsafe().recvBufAllocHandle()).isSameAs(handle);
        assertThat(handle.guess()).isEqualTo(1024 * 1024);

        channel.config().setRecvByteBufAllocator(ReadSizes.READS);
        handle.reset(channel.config());
        assertThat(handle.guess()).isEqualTo(16 * 1024);
        channel.finishAndReleaseAll();
    }
}
