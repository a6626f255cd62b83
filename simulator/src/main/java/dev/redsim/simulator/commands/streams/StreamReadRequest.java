package dev.redsim.simulator.commands.streams;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;

/**
 * The options of XREAD and XREADGROUP, in the order xreadCommand checks them: [COUNT n] [BLOCK ms] [GROUP g c]
 * [NOACK] STREAMS key ... id ... The IDs are read later, key by key, with the keys' types and groups.
 */
final class StreamReadRequest {
    private static final RedisError UNBALANCED = new RedisError(
            "ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified.");
    private static final RedisError GROUP_IN_XREAD =
            new RedisError("ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead.");
    private static final RedisError NOACK_IN_XREAD =
            new RedisError("ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead.");
    private static final RedisError MISSING_GROUP = new RedisError("ERR Missing GROUP option for XREADGROUP");

    /** Deadline in simulator epoch ms, 0 to wait forever, -1 when the call does not block. */
    long deadline = -1;
    /** Entries per stream, 0 for all. */
    long count;
    Bytes group;
    Bytes consumer;
    boolean noAck;
    /** Index of the first key; the IDs follow the keys. */
    int keysFrom;
    int keyCount;

    boolean blocks() {
        return deadline != -1;
    }

    Bytes key(CommandContext ctx, int i) {
        return ctx.key(keysFrom + i);
    }

    int idIndex(int i) {
        return keysFrom + keyCount + i;
    }

    static StreamReadRequest parse(CommandContext ctx, boolean readGroup) {
        StreamReadRequest request = new StreamReadRequest();
        for (int i = 1; i < ctx.argc(); i++) {
            int more = ctx.argc() - i - 1;
            if (ctx.is(i, "block") && more > 0) {
                if (Streams.fromScript(ctx)) {
                    throw new RedisError("ERR " + ctx.text(0) + " command is not allowed with BLOCK option from scripts");
                }
                request.deadline = deadline(ctx, ++i);
            } else if (ctx.is(i, "count") && more > 0) {
                request.count = Math.max(0, ctx.longArg(++i));
            } else if (ctx.is(i, "streams") && more > 0) {
                request.keysFrom = i + 1;
                int rest = ctx.argc() - request.keysFrom;
                if (rest % 2 != 0) {
                    throw UNBALANCED;
                }
                request.keyCount = rest / 2;
                break;
            } else if (ctx.is(i, "group") && more >= 2) {
                if (!readGroup) {
                    throw GROUP_IN_XREAD;
                }
                request.group = ctx.key(i + 1);
                request.consumer = ctx.key(i + 2);
                i += 2;
            } else if (ctx.is(i, "noack")) {
                if (!readGroup) {
                    throw NOACK_IN_XREAD;
                }
                request.noAck = true;
            } else {
                throw RedisError.SYNTAX;
            }
        }
        if (request.keysFrom == 0) {
            throw RedisError.SYNTAX;
        }
        if (readGroup && request.group == null) {
            throw MISSING_GROUP;
        }
        return request;
    }

    /**
     * BLOCK's milliseconds as getTimeoutFromObjectOrReply reads them: an integer, not negative, 0 for ever (a
     * deadline past the end of time waits for ever too, where Redis's sum overflows).
     */
    private static long deadline(CommandContext ctx, int index) {
        long millis = ctx.longArg(index, new RedisError("ERR timeout is not an integer or out of range"));
        if (millis < 0) {
            throw new RedisError("ERR timeout is negative");
        }
        if (millis == 0) {
            return 0;
        }
        long now = ctx.now();
        return millis > Long.MAX_VALUE - now ? Long.MAX_VALUE : now + millis;
    }

    private StreamReadRequest() {
    }
}
