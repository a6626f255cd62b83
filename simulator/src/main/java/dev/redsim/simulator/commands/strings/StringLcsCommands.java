package dev.redsim.simulator.commands.strings;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.RedisValue;
import dev.redsim.simulator.keyspace.StringValue;
import dev.redsim.simulator.protocol.Reply;

import java.util.ArrayList;
import java.util.List;

/** LCS: the longest common subsequence of two strings, by the same dynamic programming table as Redis. */
public final class StringLcsCommands implements CommandFamily {
    private static final byte[] EMPTY = new byte[0];

    /** One matched range, as LCS IDX reports it: positions in the first and second string, inclusive. */
    private record Match(int aStart, int aEnd, int bStart, int bEnd) {
        int length() {
            return aEnd - aStart + 1;
        }
    }

    @Override
    public void register(CommandTable t) {
        t.handler("lcs", this::lcs);
    }

    private void lcs(CommandContext ctx) {
        // Both keys are looked up before either type is checked, as Redis does.
        RedisValue first = ctx.db().getForRead(ctx.key(1));
        RedisValue second = ctx.db().getForRead(ctx.key(2));
        byte[] a = stringOrEmpty(first);
        byte[] b = stringOrEmpty(second);
        boolean idx = false;
        boolean len = false;
        boolean withMatchLen = false;
        long minMatchLen = 0;
        for (int j = 3; j < ctx.argc(); j++) {
            boolean moreArgs = j + 1 < ctx.argc();
            if (ctx.is(j, "idx")) {
                idx = true;
            } else if (ctx.is(j, "len")) {
                len = true;
            } else if (ctx.is(j, "withmatchlen")) {
                withMatchLen = true;
            } else if (ctx.is(j, "minmatchlen") && moreArgs) {
                minMatchLen = Math.max(0, ctx.longArg(++j));
            } else {
                throw RedisError.SYNTAX;
            }
        }
        if (idx && len) {
            throw new RedisError("ERR If you want both the length and indexes, please just use IDX.");
        }
        // Redis's table holds a 4-byte cell per pair of positions, and it refuses a table bigger than
        // proto-max-bulk-len before allocating it (two 12 KB strings already pass the default 512 MB)
        long cells = (long) (a.length + 1) * (b.length + 1);
        if (cells * 4 > ctx.engine().config().protoMaxBulkLen()) {
            throw new RedisError("ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len");
        }
        if (cells > Integer.MAX_VALUE - 8) {
            throw new RedisError("ERR Insufficient memory, failed allocating transient memory for LCS");
        }
        int[] table = buildTable(a, b);
        int total = table[table.length - 1];
        if (len) {
            ctx.reply().integer(total);
            return;
        }
        byte[] common = new byte[total];
        List<Match> matches = walkBack(a, b, table, common, minMatchLen);
        if (!idx) {
            ctx.reply().bulk(common);
            return;
        }
        Reply reply = ctx.reply();
        reply.map(2);
        reply.bulk("matches");
        reply.array(matches.size());
        for (Match m : matches) {
            reply.array(withMatchLen ? 3 : 2);
            reply.array(2);
            reply.integer(m.aStart);
            reply.integer(m.aEnd);
            reply.array(2);
            reply.integer(m.bStart);
            reply.integer(m.bEnd);
            if (withMatchLen) {
                reply.integer(m.length());
            }
        }
        reply.bulk("len");
        reply.integer(total);
    }

    private static byte[] stringOrEmpty(RedisValue value) {
        if (value == null) {
            return EMPTY;
        }
        if (!(value instanceof StringValue s)) {
            throw new RedisError("ERR The specified keys must contain string values");
        }
        return s.bytes();
    }

    /** cell (i, j) holds the LCS length of a[0..i) and b[0..j); row-major with blen+1 columns. */
    private static int[] buildTable(byte[] a, byte[] b) {
        int cols = b.length + 1;
        int[] t = new int[(a.length + 1) * cols];
        for (int i = 1; i <= a.length; i++) {
            int row = i * cols;
            int prev = row - cols;
            for (int j = 1; j <= b.length; j++) {
                if (a[i - 1] == b[j - 1]) {
                    t[row + j] = t[prev + j - 1] + 1;
                } else {
                    t[row + j] = Math.max(t[prev + j], t[row + j - 1]);
                }
            }
        }
        return t;
    }

    /**
     * Walks the table back from the end, filling the common string and collecting the ranges Redis emits, in
     * Redis's order (from the end of the strings) and with its tie-breaking (prefer moving in the second string).
     */
    private static List<Match> walkBack(byte[] a, byte[] b, int[] t, byte[] common, long minMatchLen) {
        int cols = b.length + 1;
        List<Match> matches = new ArrayList<>();
        int pending = common.length;
        int i = a.length;
        int j = b.length;
        int aStart = -1;
        int aEnd = 0;
        int bStart = 0;
        int bEnd = 0;
        while (i > 0 && j > 0) {
            boolean emit = false;
            if (a[i - 1] == b[j - 1]) {
                common[--pending] = a[i - 1];
                if (aStart < 0) {
                    aStart = i - 1;
                    aEnd = i - 1;
                    bStart = j - 1;
                    bEnd = j - 1;
                } else if (aStart == i && bStart == j) {
                    aStart--;
                    bStart--;
                } else {
                    emit = true;
                }
                if (aStart == 0 || bStart == 0) {
                    emit = true;
                }
                i--;
                j--;
            } else {
                if (t[(i - 1) * cols + j] > t[i * cols + j - 1]) {
                    i--;
                } else {
                    j--;
                }
                if (aStart >= 0) {
                    emit = true;
                }
            }
            if (emit) {
                Match m = new Match(aStart, aEnd, bStart, bEnd);
                if (minMatchLen == 0 || m.length() >= minMatchLen) {
                    matches.add(m);
                }
                aStart = -1;
            }
        }
        return matches;
    }
}
