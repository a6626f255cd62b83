package dev.redsim.simulator.commands.streams;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.StreamId;
import dev.redsim.simulator.keyspace.StreamValue;

/**
 * The options XADD and XTRIM share (streamParseAddOrTrimArgsOrReply): MAXLEN or MINID with "=" or "~", LIMIT,
 * and for XADD NOMKSTREAM and the ID, which ends the options.
 */
final class StreamTrimArgs {
    private static final RedisError BOTH_STRATEGIES =
            new RedisError("ERR syntax error, MAXLEN and MINID options at the same time are not compatible");
    private static final RedisError NEGATIVE_MAXLEN = new RedisError("ERR The MAXLEN argument must be >= 0.");
    private static final RedisError NEGATIVE_LIMIT = new RedisError("ERR The LIMIT argument must be >= 0.");
    private static final RedisError LIMIT_WITHOUT_STRATEGY =
            new RedisError("ERR syntax error, LIMIT cannot be used without specifying a trimming strategy");
    private static final RedisError XTRIM_WITHOUT_STRATEGY =
            new RedisError("ERR syntax error, XTRIM must be called with a trimming strategy");
    private static final RedisError LIMIT_WITHOUT_APPROXIMATION =
            new RedisError("ERR syntax error, LIMIT cannot be used without the special ~ option");

    /** MAXLEN's length, or -1 when trimming by MINID or not at all. */
    long maxLength = -1;
    /** MINID's ID, or null. */
    StreamId minId;
    boolean approximate;
    long limit;
    boolean noMakeStream;
    /** XADD: the argument index of the ID; the fields follow it. */
    int idIndex;
    /** The argument index of "~" (-1 without) and of the threshold after MAXLEN / MINID (-1 without). */
    int approximationIndex = -1;
    int thresholdIndex = -1;

    boolean trims() {
        return maxLength >= 0 || minId != null;
    }

    /** Parses from argument 2; for XADD up to and including the ID, for XTRIM to the end. */
    static StreamTrimArgs parse(CommandContext ctx, boolean xadd) {
        StreamTrimArgs args = new StreamTrimArgs();
        boolean limitGiven = false;
        int i = 2;
        for (; i < ctx.argc(); i++) {
            boolean more = i < ctx.argc() - 1;
            boolean twoMore = i < ctx.argc() - 2;
            byte[] opt = ctx.arg(i);
            if (xadd && opt.length == 1 && opt[0] == '*') {
                break;
            } else if (ctx.is(i, "maxlen") && more) {
                if (args.trims()) {
                    throw BOTH_STRATEGIES;
                }
                i = skipApproximation(ctx, i, twoMore, args);
                args.thresholdIndex = i + 1;
                args.maxLength = ctx.longArg(i + 1);
                if (args.maxLength < 0) {
                    throw NEGATIVE_MAXLEN;
                }
                i++;
            } else if (ctx.is(i, "minid") && more) {
                if (args.trims()) {
                    throw BOTH_STRATEGIES;
                }
                i = skipApproximation(ctx, i, twoMore, args);
                args.thresholdIndex = i + 1;
                args.minId = StreamIds.strict(ctx, i + 1);
                i++;
            } else if (ctx.is(i, "limit") && more) {
                args.limit = ctx.longArg(i + 1);
                if (args.limit < 0) {
                    throw NEGATIVE_LIMIT;
                }
                limitGiven = true;
                i++;
            } else if (xadd && ctx.is(i, "nomkstream")) {
                args.noMakeStream = true;
            } else if (xadd) {
                StreamIds.forAdd(ctx.arg(i)); // a syntax error here is an invalid ID
                break;
            } else {
                throw RedisError.SYNTAX;
            }
        }
        args.idIndex = i;
        if (args.limit != 0 && !args.trims()) {
            throw LIMIT_WITHOUT_STRATEGY;
        }
        if (!xadd && !args.trims()) {
            throw XTRIM_WITHOUT_STRATEGY;
        }
        if (limitGiven) {
            if (!args.approximate) {
                throw LIMIT_WITHOUT_APPROXIMATION;
            }
        } else if (args.approximate) {
            args.limit = defaultLimit(ctx.engine().config().getLong("stream-node-max-entries"));
        } else {
            args.limit = 0;
        }
        return args;
    }

    /** "~" or "=" after MAXLEN/MINID, when a value follows it; returns the index of the word before the value. */
    private static int skipApproximation(CommandContext ctx, int i, boolean twoMore, StreamTrimArgs args) {
        args.approximate = false;
        byte[] next = ctx.arg(i + 1);
        if (twoMore && next.length == 1 && (next[0] == '~' || next[0] == '=')) {
            args.approximate = next[0] == '~';
            args.approximationIndex = args.approximate ? i + 1 : -1;
            return i + 1;
        }
        return i;
    }

    /**
     * An approximate trim without LIMIT removes at most 100 nodes' worth of entries: 10,000 when nodes have no entry
     * limit, never more than 1,000,000 (both measured on redis-server 7.0.15).
     */
    private static long defaultLimit(long nodeMaxEntries) {
        long limit = 100 * nodeMaxEntries;
        if (limit <= 0) {
            return 10_000;
        }
        return Math.min(limit, 1_000_000);
    }

    /**
     * The arguments as the replicas get them (streamRewriteApproxSpecifier, streamRewriteTrimArgument): an
     * approximate trim ends where it ended here, which a replica's own "~" might not, so "~" becomes "=" and the
     * threshold the length (MAXLEN) or first ID (MINID, deleted entries still in a node included, as Redis
     * reads it) the stream has now.
     */
    byte[][] exactTrim(byte[][] argv, StreamValue stream) {
        if (!approximate) {
            return argv;
        }
        byte[][] out = argv.clone();
        out[approximationIndex] = new byte[] {'='};
        out[thresholdIndex] = maxLength >= 0
                ? Long.toString(stream.length()).getBytes(java.nio.charset.StandardCharsets.US_ASCII)
                : stream.firstIdWithTombstones().bytes();
        return out;
    }

    /** Trims the stream as these options say; returns how many entries went. */
    long trim(StreamValue stream) {
        return stream.trim(maxLength < 0 ? 0 : maxLength, minId, approximate, limit);
    }
}
