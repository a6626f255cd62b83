package dev.redsim.simulator.keyspace;

import dev.redsim.simulator.util.ChunkedBytes;

/**
 * A string value stored as it arrived, in chunks (decision 0048): SET of a big value makes no array of the value's
 * size. Readers that can take the value in pieces use {@link #chunks()}; any other reader puts it in one array on
 * first need (as {@link StringValue} keeps it from then on), which is the one-step allocation chunks avoid, so only
 * the commands that change or reparse a whole value (APPEND, SETRANGE, SETBIT, BITOP, LCS, DUMP, Lua...) pay it.
 */
public final class ChunkedStringValue extends StringValue {
    /** The chunks, until the value is put in one array. */
    private ChunkedBytes chunks;

    ChunkedStringValue(ChunkedBytes chunks) {
        super(chunks.length());
        this.chunks = chunks;
    }

    @Override
    public ChunkedBytes chunks() {
        return chunks;
    }

    @Override
    void chunksGathered() {
        chunks = null;
    }

    /** A copy (COPY, RESTORE's source...) shares the chunks, which never change. */
    @Override
    public RedisValue copy() {
        return chunks != null ? new ChunkedStringValue(chunks) : super.copy();
    }
}
