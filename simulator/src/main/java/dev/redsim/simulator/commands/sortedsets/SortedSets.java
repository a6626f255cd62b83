package dev.redsim.simulator.commands.sortedsets;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.EncodingLimits;
import dev.redsim.simulator.keyspace.SortedSetValue;
import dev.redsim.simulator.keyspace.ZSkipList;
import dev.redsim.simulator.protocol.Reply;

import java.util.List;

/** What the sorted set commands share: typed lookups, stores, removal bookkeeping and scored replies. */
final class SortedSets {
    private SortedSets() {
    }

    static EncodingLimits limits(CommandContext ctx) {
        return ctx.engine().config();
    }

    /** The zset under a key for a read command, or null; WRONGTYPE for other types. */
    static SortedSetValue read(CommandContext ctx, Bytes key) {
        return ctx.db().getForRead(key, SortedSetValue.class);
    }

    /** The zset under a key for a write command, or null; WRONGTYPE for other types. */
    static SortedSetValue write(CommandContext ctx, Bytes key) {
        return ctx.db().get(key, SortedSetValue.class);
    }

    /**
     * Reports a change made in place: signals, notifies the command's event, and deletes the key (with a "del"
     * event) when the set became empty, as Redis never keeps an empty zset.
     */
    static void changed(CommandContext ctx, Bytes key, SortedSetValue zset, String event, long changes) {
        ctx.signalModified(key);
        ctx.notifyEvent(KeyspaceEvents.ZSET, event, key);
        if (zset.isEmpty()) {
            ctx.db().delete(key);
            ctx.notifyEvent(KeyspaceEvents.GENERIC, "del", key);
        }
        ctx.dirty(changes);
    }

    /**
     * Stores a computed result under dst (replacing whatever was there, TTL included), or deletes dst when the
     * result is empty; replies the result's size.
     */
    static void storeResult(CommandContext ctx, Bytes dst, SortedSetValue result, String event) {
        if (!result.isEmpty()) {
            result.encodeAsResult(limits(ctx));
            ctx.db().put(dst, result);
            ctx.signalModified(dst);
            ctx.notifyEvent(KeyspaceEvents.ZSET, event, dst);
            ctx.dirty(1);
        } else if (ctx.db().delete(dst)) {
            ctx.signalModified(dst);
            ctx.notifyEvent(KeyspaceEvents.GENERIC, "del", dst);
            ctx.dirty(1);
        }
        ctx.reply().integer(result.size());
    }

    /** Members, or member/score pairs (flat in RESP2, nested in RESP3) when withScores. */
    static void replyEntries(Reply reply, List<ZSkipList.Node> nodes, boolean withScores) {
        if (withScores) {
            reply.pairArray(nodes.size());
            for (ZSkipList.Node n : nodes) {
                reply.pairStart();
                reply.bulk(n.member().bytes());
                reply.doubleValue(n.score());
            }
        } else {
            reply.array(nodes.size());
            for (ZSkipList.Node n : nodes) {
                reply.bulk(n.member().bytes());
            }
        }
    }
}
