package dev.redsim.simulator.protocol;

import io.netty.channel.ChannelConfig;
import io.netty.channel.DefaultMaxMessagesRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;

/**
 * How much one read of a connection asks for: 16 KB (PROTO_IOBUF_LEN), or 1 MB while a big argument arrives (Redis then
 * reads what remains of the argument at once). Netty makes a channel's read handle once, from the allocator configured
 * when the channel starts, so configuring another allocator later changes nothing by itself (a FixedRecvByteBufAllocator
 * swapped in kept reading 16 KB: a 100 MB value took 6,400 reads through the pipeline). This allocator's handle asks
 * the channel's configuration at every read which size is configured now, so the decoder's switch takes effect. One
 * read per readiness, as Redis reads once per event. Holds no state of its own: one instance serves every channel.
 */
public final class ReadSizes extends DefaultMaxMessagesRecvByteBufAllocator {
    /**
     * Reads of PROTO_IOBUF_LEN (16 KB), as Redis reads: protocol limits are checked per read, so equal read sizes
     * make the same input meet the same limits. The allocators hold no state of their own.
     */
    public static final RecvByteBufAllocator READS = new ReadSizes(RespParser.READ_BYTES);
    /** {@link #READS} for epoll connections, whose read handle must never report a full read (see below). */
    public static final RecvByteBufAllocator EPOLL_READS = new ReadSizes(RespParser.READ_BYTES, true);
    /** While a big argument arrives: {@link RespParser#BIG_ARG_READ_BYTES} at a time (a pooled buffer). */
    public static final RecvByteBufAllocator BIG_ARG_READS = new ReadSizes(RespParser.BIG_ARG_READ_BYTES);
    private final int bytes;
    /** Whether handles made by this allocator report one byte more than attempted (epoll's only: see below). */
    private final boolean reportsOneMore;

    ReadSizes(int bytes) {
        this(bytes, false);
    }

    ReadSizes(int bytes, boolean reportsOneMore) {
        this.bytes = bytes;
        this.reportsOneMore = reportsOneMore;
    }

    int bytes() {
        return bytes;
    }

    @Override
    public Handle newHandle() {
        return reportsOneMore ? new OneMoreThanAttempted() : new SizeOfTheMoment();
    }

    /** A channel's handle: its guess is the size of whichever ReadSizes the channel is configured with now. */
    private class SizeOfTheMoment extends MaxMessageHandle {
        private ChannelConfig config;

        @Override
        public void reset(ChannelConfig config) {
            this.config = config; // reset comes first in every read loop, with the channel's own configuration
            super.reset(config);
        }

        @Override
        public int guess() {
            RecvByteBufAllocator configured = config == null ? null : config.getRecvByteBufAllocator();
            return configured instanceof ReadSizes sizes ? sizes.bytes() : bytes;
        }
    }

    /**
     * Epoll's handle (the allocator {@link #EPOLL_READS}, which the epoll bootstrap configures; the handle
     * is made once, from the allocator a channel starts with, so it stays this one when the decoder switches sizes).
     */
    private final class OneMoreThanAttempted extends SizeOfTheMoment {
        /**
         * One more than the transport asked the kernel for: a read never looks as if it filled its buffer, so the
         * transport never concludes that more is waiting and reads again on its own. Epoll's transport did that in a
         * task that queues itself after every full read, and its loop runs 64 tasks before it looks at anything else:
         * a connection sending a big value was read 64 MB at a time while other clients waited (decision 0048). With
         * one read per readiness and level-triggered readiness (see EpollReads), the loop comes back to a connection
         * with more input on its next turn, after the others, as Redis's event loop does. Epoll only: NIO reads
         * {@code attemptedBytesRead()} bytes into the buffer (NioSocketChannel.doReadBytes), so one more there grew
         * every read's buffer to twice its size (a reallocation and a copy per read), and NIO reads once per readiness
         * already (one message per read loop).
         */
        @Override
        public int attemptedBytesRead() {
            return super.attemptedBytesRead() + 1;
        }
    }
}
