package dev.redsim.simulator.keyspace;

import dev.redsim.simulator.util.rdb.RdbWriter;

/** A value stored under a key: one implementation per Redis type, as in Redis's robj types. */
public sealed interface RedisValue permits StringValue, ListValue, HashValue, SetValue, SortedSetValue, StreamValue {
    /** The name TYPE replies: string, list, hash, set, zset. */
    String typeName();

    /**
     * The name OBJECT ENCODING replies. Like Redis, a value moves to the bigger encoding when a write crosses an
     * {@link EncodingLimits} threshold and does not move back when it shrinks.
     */
    String encoding();

    /** A deep copy, for COPY: a new object, with its own access time. */
    RedisValue copy();

    /** When the value was last accessed (epoch ms), for OBJECT IDLETIME; provided by {@link AccessTracked}. */
    long accessedAt();

    void accessedAt(long epochMillis);

    /**
     * MEMORY USAGE of the value, without its key: the bytes Redis 7.0 (64-bit, jemalloc) would use for it, from
     * its encoding and contents, following the layout of Redis's structures ({@link MemoryLayout}). Like Redis,
     * big hashtable-encoded values are sampled ({@code samples} elements) and extrapolated.
     */
    long memoryUsage(long samples);

    /**
     * The estimate used_memory counts for the value, kept up to date after every write, so it must cost O(1) or a
     * bound the encoding sets (a listpack or intset never holds more than its configured maximum): MEMORY USAGE with
     * its default sampling, except where that walks the whole value (lists keep a running figure).
     */
    default long trackedBytes() {
        return memoryUsage(5);
    }

    /**
     * Whether a client blocked on the key may be served from this value (Redis signals a key as ready for lists,
     * sorted sets and streams): BLPOP, BZPOPMIN and their kin wait for such values.
     */
    default boolean servesBlockedClients() {
        return false;
    }

    /**
     * DUMP: the value in Redis's RDB serialization, its type byte first (rdbSaveObjectType, rdbSaveObject), in the
     * form its encoding dictates, as Redis writes it.
     */
    void writeRdb(RdbWriter out);
}
