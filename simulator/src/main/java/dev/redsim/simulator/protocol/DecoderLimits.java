package dev.redsim.simulator.protocol;

import dev.redsim.simulator.util.ChunkedBytes;

/** What the decoder must know about the connection and the server to apply Redis's input limits. */
public interface DecoderLimits {
    /** proto-max-bulk-len: the largest bulk string accepted. */
    long maxBulkLength();

    /** client-query-buffer-limit: the most input a client may have sent that is not yet a whole command. */
    long maxQueryBuffer();

    /** False while the server wants a password this connection has not given (Redis then caps lengths). */
    boolean authenticated();

    /**
     * The chunk size for a value of {@code length} bytes that may be kept in chunks, or 0 to gather it into one array
     * (see {@link ChunkedBytes#chunkSizeFor}).
     */
    default int chunkSizeFor(long length) {
        return ChunkedBytes.chunkSizeFor(length);
    }
}
