package dev.redsim.simulator.commands.keys;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.keyspace.HashValue;
import dev.redsim.simulator.keyspace.ListValue;
import dev.redsim.simulator.keyspace.RedisValue;
import dev.redsim.simulator.keyspace.SetValue;
import dev.redsim.simulator.keyspace.SortedSetValue;
import dev.redsim.simulator.keyspace.StreamGroup;
import dev.redsim.simulator.keyspace.StreamValue;

/**
 * Which deletions Redis hands to its lazyfree thread (lazyfree.c), so that INFO's lazyfreed_objects counts what it
 * counts. Nothing is freed differently here: dropping the reference is O(1) and the garbage collector frees the value
 * off the engine thread (decision 0020), so the count is the only thing a client can observe.
 */
public final class LazyFree {
    /** LAZYFREE_THRESHOLD: a value that takes more allocations than this to free goes to the lazyfree thread. */
    static final long THRESHOLD = 64;

    private LazyFree() {
    }

    /**
     * lazyfreeGetFreeEffort: about how many allocations freeing the value takes; 1 for strings and the compact
     * encodings (one listpack or intset). O(1), as in Redis (a stream's groups are estimated from the first one's PEL).
     */
    static long freeEffort(RedisValue value) {
        if (value instanceof ListValue list) {
            return list.quicklistNodes();
        } else if (value instanceof SetValue set && set.encoding().equals("hashtable")) {
            return set.size();
        } else if (value instanceof SortedSetValue zset && zset.encoding().equals("skiplist")) {
            return zset.size();
        } else if (value instanceof HashValue hash && hash.encoding().equals("hashtable")) {
            return hash.size();
        } else if (value instanceof StreamValue stream) {
            // Redis counts the radix tree's nodes; its listpacks are the closest count the simulator keeps
            long effort = stream.nodeCount();
            if (!stream.groups().isEmpty()) {
                StreamGroup first = stream.groups().firstEntry().getValue();
                effort += (long) stream.groups().size() * (1 + first.pending().size());
            }
            return effort;
        }
        return 1;
    }

    /** dbAsyncDelete's choice for a value about to be unlinked: counted when Redis would free it lazily. */
    static void unlinked(CommandContext ctx, RedisValue value) {
        if (value != null && freeEffort(value) > THRESHOLD) {
            ctx.engine().stats().lazyfreedObjects++;
        }
    }

    /** emptyDbAsync: every key of a database emptied asynchronously counts as a lazily freed object. */
    public static void flushedAsync(CommandContext ctx, long keys) {
        ctx.engine().stats().lazyfreedObjects += keys;
    }

    /**
     * FLUSHALL / FLUSHDB's mode (getFlushCommandFlags): ASYNC, SYNC, or lazyfree-lazy-user-flush when neither is
     * given. Call after the arguments were checked.
     */
    public static boolean flushIsAsync(CommandContext ctx) {
        if (ctx.argc() == 2) {
            return ctx.is(1, "async");
        }
        return ctx.engine().config().get("lazyfree-lazy-user-flush").equals("yes");
    }
}
