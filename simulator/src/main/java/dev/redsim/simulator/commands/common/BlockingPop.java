package dev.redsim.simulator.commands.common;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.RedisValue;

import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * What every blocking pop (BLPOP, BLMPOP, BLMOVE, BZPOPMIN, BZMPOP, ...) does: take from the first key that
 * has something, in argument order; otherwise, inside MULTI or a script, answer the empty reply at once;
 * otherwise wait on all the keys, and take when one of them becomes ready.
 */
public final class BlockingPop<V extends RedisValue> {
    /** Takes from a value that has something to give, writing the reply to the client being served. */
    public interface Take<V> {
        void take(CommandContext ctx, Bytes key, V value);
    }

    private final Class<V> type;
    private final BiFunction<CommandContext, Bytes, V> lookup;
    private final Predicate<V> hasItems;

    /**
     * @param lookup   the value under a key with its type checked (WRONGTYPE for another type), or null
     * @param hasItems whether a value has something to take
     */
    public BlockingPop(Class<V> type, BiFunction<CommandContext, Bytes, V> lookup, Predicate<V> hasItems) {
        this.type = type;
        this.lookup = lookup;
        this.hasItems = hasItems;
    }

    /**
     * @param emptyReply what a client that may not block (inside MULTI) gets when no key has anything
     */
    public void serveOrBlock(CommandContext ctx, Bytes[] keys, long deadline, Take<V> take, Runnable emptyReply) {
        for (Bytes key : keys) {
            V value = lookup.apply(ctx, key);
            if (value != null && hasItems.test(value)) {
                take.take(ctx, key, value);
                return;
            }
        }
        if (ctx.client().denyBlocking()) {
            emptyReply.run();
            return;
        }
        ctx.engine().blockedClients().block(ctx.client(), ctx.spec().fullName(), keys, deadline, key -> {
            // a ready key may have been emptied, deleted or retyped by then: the waiter keeps waiting
            RedisValue value = ctx.db().get(key);
            if (!type.isInstance(value) || !hasItems.test(type.cast(value))) {
                return false;
            }
            take.take(ctx, key, type.cast(value));
            ctx.propagateServed(); // served outside any call: what it took goes to the replicas now
            return true;
        });
    }

    /** The key arguments from position {@code first}, {@code count} of them. */
    public static Bytes[] keys(CommandContext ctx, int first, int count) {
        Bytes[] keys = new Bytes[count];
        for (int i = 0; i < count; i++) {
            keys[i] = ctx.key(first + i);
        }
        return keys;
    }
}
