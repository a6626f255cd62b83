package dev.redsim.simulator.commands.common;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.util.GlobMatcher;

import java.util.List;

/** The MATCH / COUNT (/ TYPE for SCAN) options shared by SCAN, SSCAN, HSCAN and ZSCAN, with Redis's errors. */
public final class ScanOptions {
    private byte[] pattern;
    private long count = 10;
    private String type;

    private ScanOptions() {
    }

    /** Parses options from index {@code from}; TYPE only where {@code allowType} (SCAN on the keyspace). */
    public static ScanOptions parse(CommandContext ctx, int from, boolean allowType) {
        ScanOptions o = new ScanOptions();
        for (int i = from; i < ctx.argc(); i += 2) {
            boolean hasValue = i + 1 < ctx.argc();
            if (ctx.is(i, "count") && hasValue) {
                o.count = ctx.longArg(i + 1);
                if (o.count < 1) {
                    throw RedisError.SYNTAX;
                }
            } else if (ctx.is(i, "match") && hasValue) {
                byte[] p = ctx.arg(i + 1);
                // "*" matches everything: Redis skips matching altogether.
                o.pattern = p.length == 1 && p[0] == '*' ? null : p;
            } else if (allowType && ctx.is(i, "type") && hasValue) {
                o.type = ctx.text(i + 1);
            } else {
                throw RedisError.SYNTAX;
            }
        }
        return o;
    }

    public long count() {
        return count;
    }

    /** The TYPE filter, or null. */
    public String type() {
        return type;
    }

    public boolean matches(byte[] element) {
        return pattern == null || GlobMatcher.matches(pattern, element, false);
    }

    /** The reply of a scan over a missing key: cursor 0 and nothing. */
    public static void writeEmpty(Reply reply) {
        reply.array(2);
        reply.bulk("0");
        reply.emptyArray();
    }

    /** Writes [cursor, elements] keeping only the elements that match the pattern. */
    public void writePage(Reply reply, long cursor, List<byte[]> elements) {
        reply.array(2);
        reply.bulk(Long.toUnsignedString(cursor));
        if (pattern == null) {
            reply.bulkArray(elements);
            return;
        }
        int matching = 0;
        for (byte[] e : elements) {
            if (matches(e)) {
                matching++;
            }
        }
        reply.array(matching);
        for (byte[] e : elements) {
            if (matches(e)) {
                reply.bulk(e);
            }
        }
    }
}
