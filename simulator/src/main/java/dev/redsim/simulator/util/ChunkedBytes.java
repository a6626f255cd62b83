package dev.redsim.simulator.util;

/**
 * A big byte string kept as a row of arrays ("chunks") instead of one array (decision 0048). The JVM zeroes a new
 * array in one step that no safepoint can interrupt, so a single 500 MB array held every thread of the process (the
 * engine's included) for as long as its pages took to fault in: 0.4 s and more, where redis-server's other clients
 * wait a few milliseconds. A chunk is zeroed in about a millisecond, and only when its first byte arrives.
 *
 * <p>Immutable once made ({@link Filling#done}); every chunk is full but the last. Equality is identity: comparing
 * contents would need the whole string.
 */
public final class ChunkedBytes {
    private final byte[][] chunks;
    private final int chunkSize;
    private final int length;

    private ChunkedBytes(byte[][] chunks, int chunkSize, int length) {
        this.chunks = chunks;
        this.chunkSize = chunkSize;
        this.length = length;
    }

    /**
     * The chunk size for a string of {@code length} bytes, or 0 when it stays one array (it fits in one chunk). A
     * chunk is one G1 heap region less room for the array's header, so that every chunk is a humongous object of
     * exactly one region (never copied by a young collection, no region half empty). The system property
     * {@code redsim.valueChunkBytes} sets another size (the test suite runs once with a small one, so that every value
     * of more than a few kilobytes goes through chunks).
     */
    public static int chunkSizeFor(long length) {
        return length >= ChunkSize.BYTES ? ChunkSize.BYTES : 0;
    }

    /** Gathers a string of {@code length} bytes as they arrive, a chunk of {@code chunkSize} at a time. */
    public static Filling filling(int length, int chunkSize) {
        return new Filling(length, chunkSize);
    }

    public int length() {
        return length;
    }

    public int chunkCount() {
        return chunks.length;
    }

    /** Chunk {@code i}; callers must not change it. */
    public byte[] chunk(int i) {
        return chunks[i];
    }

    /** The whole string in one new array: the one-step allocation this class exists to avoid, for readers that need it. */
    public byte[] toArray() {
        byte[] whole = new byte[length];
        copyTo(0, whole, 0, length);
        return whole;
    }

    /** Where a run of bytes lies: {@code length} bytes of {@code array} from {@code offset}. */
    @FunctionalInterface
    public interface Pieces {
        void piece(byte[] array, int offset, int length);
    }

    /** Hands bytes {@code [from, from + count)} to {@code pieces}, in order, one run per chunk they touch. */
    public void forEachPiece(int from, int count, Pieces pieces) {
        if (from < 0 || count < 0 || from > length - count) {
            throw new IndexOutOfBoundsException("bytes " + from + "+" + count + " of " + length);
        }
        while (count > 0) {
            int chunk = from / chunkSize;
            int offset = from % chunkSize;
            int take = Math.min(count, chunks[chunk].length - offset);
            pieces.piece(chunks[chunk], offset, take);
            from += take;
            count -= take;
        }
    }

    /** Copies {@code count} bytes from offset {@code from} into {@code target} at {@code at}. */
    public void copyTo(int from, byte[] target, int at, int count) {
        int[] next = {at};
        forEachPiece(from, count, (array, offset, length) -> {
            System.arraycopy(array, offset, target, next[0], length);
            next[0] += length;
        });
    }

    /** Bytes {@code [from, from + count)} in a new array. */
    public byte[] range(int from, int count) {
        byte[] out = new byte[count];
        copyTo(from, out, 0, count);
        return out;
    }

    /** A string's bytes as they arrive: each chunk is made when its first byte comes, so allocation follows the input. */
    public static final class Filling {
        private final byte[][] chunks;
        private final int chunkSize;
        private final int length;
        private int filled;

        private Filling(int length, int chunkSize) {
            if (length < 0 || chunkSize <= 0) {
                throw new IllegalArgumentException("length " + length + ", chunk size " + chunkSize);
            }
            this.length = length;
            this.chunkSize = chunkSize;
            this.chunks = new byte[(int) (((long) length + chunkSize - 1) / chunkSize)][];
        }

        /** The array the next bytes go into, at {@link #offset()}, with {@link #room()} bytes left in it. */
        public byte[] target() {
            int chunk = filled / chunkSize;
            if (chunks[chunk] == null) {
                chunks[chunk] = new byte[Math.min(chunkSize, length - chunk * chunkSize)];
            }
            return chunks[chunk];
        }

        public int offset() {
            return filled % chunkSize;
        }

        public int room() {
            return Math.min(chunkSize - offset(), length - filled);
        }

        /** {@code count} more bytes were written at {@link #offset()} of {@link #target()}. */
        public void advance(int count) {
            if (count < 0 || count > room()) {
                throw new IndexOutOfBoundsException(count + " bytes where " + room() + " fit");
            }
            filled += count;
        }

        public int filled() {
            return filled;
        }

        public boolean complete() {
            return filled == length;
        }

        public ChunkedBytes done() {
            if (!complete()) {
                throw new IllegalStateException(filled + " of " + length + " bytes");
            }
            return new ChunkedBytes(chunks, chunkSize, length);
        }
    }

    /** Room for an array's header (16 bytes with compressed class pointers, 24 without) and to spare. */
    private static final int HEADER_ROOM = 64;

    /**
     * One region less {@link #HEADER_ROOM}, G1's region size being the one its ergonomics choose for this heap
     * ({@link #regionSize}), computed rather than read through the management beans, whose first use costs 40-90 ms
     * on the engine thread. Where -XX:G1HeapRegionSize sets another size nothing is lost: a chunk then spans whole
     * smaller regions less 64 bytes, or is an ordinary object in bigger ones; other collectors have no regions to fit.
     */
    private static final class ChunkSize {
        static final int BYTES = Integer.getInteger("redsim.valueChunkBytes",
                (int) regionSize(Runtime.getRuntime().maxMemory()) - HEADER_ROOM);
    }

    /**
     * JDK 17's HeapRegion::setup_heap_region_size for a default G1HeapRegionSize: the maximum heap over 2,048
     * regions, rounded up to a power of two, between 1 MB and 32 MB.
     */
    static long regionSize(long maxHeap) {
        long wanted = Math.max(maxHeap / 2048, MIN_REGION);
        long size = Long.highestOneBit(wanted);
        if (size < wanted) {
            size <<= 1;
        }
        return Math.min(size, MAX_REGION);
    }

    private static final long MIN_REGION = 1024 * 1024;
    private static final long MAX_REGION = 32 * 1024 * 1024;

    @Override
    public String toString() {
        return "ChunkedBytes[" + length + " bytes in " + chunks.length + " chunks of " + chunkSize + "]";
    }
}
