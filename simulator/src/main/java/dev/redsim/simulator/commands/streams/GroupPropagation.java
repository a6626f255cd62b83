package dev.redsim.simulator.commands.streams;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.keyspace.PendingEntry;
import dev.redsim.simulator.keyspace.StreamGroup;

/**
 * How consumer-group changes reach the replicas (t_stream.c's streamPropagateXCLAIM, streamPropagateGroupID,
 * streamPropagateConsumerCreation): XREADGROUP, XCLAIM and XAUTOCLAIM are never propagated as themselves (their
 * outcome depends on times and on who read first); each pending entry they hand over goes as an idempotent XCLAIM
 * with its delivery time and count, a moved last-delivered ID as XGROUP SETID with the read counter, and a
 * consumer that no XCLAIM would create as XGROUP CREATECONSUMER.
 */
final class GroupPropagation {
    private GroupPropagation() {
    }

    /** XCLAIM key group consumer 0 id TIME ms RETRYCOUNT n FORCE JUSTID LASTID last-delivered-id. */
    static void claim(CommandContext ctx, byte[] key, byte[] group, byte[] lastId, byte[] id, PendingEntry entry) {
        ctx.alsoPropagate("XCLAIM", key, group, entry.consumer().name().bytes(), "0", id, "TIME",
                entry.deliveredAt(), "RETRYCOUNT", entry.deliveries(), "FORCE", "JUSTID", "LASTID", lastId);
    }

    /** XGROUP SETID key group last-delivered-id ENTRIESREAD entries-read. */
    static void lastId(CommandContext ctx, byte[] key, byte[] group, StreamGroup state) {
        ctx.alsoPropagate("XGROUP", "SETID", key, group, state.lastId().bytes(), "ENTRIESREAD", state.entriesRead());
    }

    /** XGROUP CREATECONSUMER key group consumer. */
    static void consumerCreated(CommandContext ctx, byte[] key, byte[] group, byte[] consumer) {
        ctx.alsoPropagate("XGROUP", "CREATECONSUMER", key, group, consumer);
    }
}
