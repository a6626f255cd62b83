package dev.redsim.simulator.commands.hashes;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.HashValue;
import dev.redsim.simulator.util.GlobMatcher;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** HRANDFIELD and HSCAN: the commands that visit a hash partly, at random or by cursor. */
final class HashSamplingCommands implements CommandFamily {
    private static final RedisError COUNT_RANGE = new RedisError(
            "ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807");
    private static final RedisError OUT_OF_RANGE = new RedisError("ERR value is out of range");
    private static final RedisError INVALID_CURSOR = new RedisError("ERR invalid cursor");

    @Override
    public void register(CommandTable t) {
        t.handler("hrandfield", this::hrandfield);
        t.handler("hscan", this::hscan);
    }

    private void hrandfield(CommandContext ctx) {
        if (ctx.argc() >= 3) {
            long count = ctx.longArg(2);
            if (count == Long.MIN_VALUE) {
                throw COUNT_RANGE;
            }
            if (ctx.argc() > 4 || (ctx.argc() == 4 && !ctx.is(3, "withvalues"))) {
                throw RedisError.SYNTAX;
            }
            boolean withValues = ctx.argc() == 4;
            if (withValues && (count < -Long.MAX_VALUE / 2 || count > Long.MAX_VALUE / 2)) {
                throw OUT_OF_RANGE;
            }
            randomFields(ctx, count, withValues);
            return;
        }
        HashValue hash = HashCommands.readHash(ctx, ctx.key(1));
        if (hash == null) {
            ctx.reply().nullBulk();
            return;
        }
        ctx.reply().bulk(randomField(hash, ThreadLocalRandom.current()).bytes());
    }

    /**
     * One random field: a random bucket of a hashtable (O(1) on average), or a walk to a random place of a listpack
     * (bounded by hash-max-listpack-entries, as Redis's own walk of the listpack is).
     */
    private static Bytes randomField(HashValue hash, ThreadLocalRandom random) {
        if (hash.encoding().equals("hashtable")) {
            return hash.randomHashtableField(random);
        }
        int skip = random.nextInt(hash.size());
        for (Bytes field : hash.fields().keySet()) {
            if (skip-- == 0) {
                return field;
            }
        }
        throw new IllegalStateException("a hash changed under HRANDFIELD");
    }

    private static List<Map.Entry<Bytes, byte[]>> entries(HashValue hash) {
        return new ArrayList<>(hash.fields().entrySet());
    }

    /**
     * HRANDFIELD with a count: a negative count samples with repetition, a positive one returns distinct fields
     * (the whole hash, in its order, when it has no more than count fields).
     */
    private void randomFields(CommandContext ctx, long count, boolean withValues) {
        HashValue hash = HashCommands.readHash(ctx, ctx.key(1));
        if (hash == null || count == 0) {
            ctx.reply().emptyArray();
            return;
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        boolean hashtable = hash.encoding().equals("hashtable");
        if (count < 0 || count == 1) {
            // Sampling with repetition: written as drawn, so a huge count needs no list of its own; each pick is
            // O(1) on a hashtable (Redis: O(count) for these).
            long n = count < 0 ? -count : 1;
            startFields(ctx, n, withValues);
            List<Map.Entry<Bytes, byte[]>> listpack = hashtable ? null : entries(hash);
            for (long i = 0; i < n; i++) {
                if (hashtable) {
                    Bytes field = hash.randomHashtableField(random);
                    replyField(ctx, Map.entry(field, hash.get(field)), withValues);
                } else {
                    replyField(ctx, listpack.get(random.nextInt(listpack.size())), withValues);
                }
            }
            return;
        }
        if (hashtable && count < hash.size() && count * 3 <= hash.size()) {
            // Few distinct fields of a big hash (hrandfieldWithCountCommand's case 4): random picks until count
            // differ, O(count), never a copy of the whole hash.
            LinkedHashSet<Bytes> picked = new LinkedHashSet<>();
            while (picked.size() < count) {
                picked.add(hash.randomHashtableField(random));
            }
            startFields(ctx, picked.size(), withValues);
            for (Bytes field : picked) {
                replyField(ctx, Map.entry(field, hash.get(field)), withValues);
            }
            return;
        }
        // The whole hash, or a listpack, or most of a hashtable (case 3: count is at least a third of the size, so
        // copying the hash costs O(count)).
        List<Map.Entry<Bytes, byte[]>> all = entries(hash);
        List<Map.Entry<Bytes, byte[]>> chosen = all;
        if (count < all.size()) {
            // Partial Fisher-Yates: the first count slots end up a uniform distinct sample.
            for (int i = 0; i < count; i++) {
                int j = i + random.nextInt(all.size() - i);
                Map.Entry<Bytes, byte[]> swap = all.get(i);
                all.set(i, all.get(j));
                all.set(j, swap);
            }
            chosen = all.subList(0, (int) count);
        }
        startFields(ctx, chosen.size(), withValues);
        for (Map.Entry<Bytes, byte[]> e : chosen) {
            replyField(ctx, e, withValues);
        }
    }

    /** The header of a reply of fields alone, or with values: flat in RESP2, as [field, value] pairs in RESP3. */
    private static void startFields(CommandContext ctx, long n, boolean withValues) {
        if (withValues) {
            ctx.reply().pairArray((int) n);
        } else {
            ctx.reply().array((int) n);
        }
    }

    private static void replyField(CommandContext ctx, Map.Entry<Bytes, byte[]> e, boolean withValues) {
        if (withValues) {
            ctx.reply().pairStart();
        }
        ctx.reply().bulk(e.getKey().bytes());
        if (withValues) {
            ctx.reply().bulk(e.getValue());
        }
    }

    /**
     * The cursor as Redis reads it (strtoul, with no leading space): an optional sign, decimal digits within
     * 64 bits unsigned, a minus wrapping around as in C; an empty cursor is 0. "ERR invalid cursor" otherwise.
     */
    static long parseCursor(byte[] text) {
        if (text.length == 0) {
            return 0;
        }
        int i = text[0] == '-' || text[0] == '+' ? 1 : 0;
        if (i == text.length) {
            throw INVALID_CURSOR;
        }
        for (int j = i; j < text.length; j++) {
            if (text[j] < '0' || text[j] > '9') {
                throw INVALID_CURSOR;
            }
        }
        long value;
        try {
            value = Long.parseUnsignedLong(new String(text, i, text.length - i, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            throw INVALID_CURSOR;
        }
        return text[0] == '-' ? -value : value;
    }

    private void hscan(CommandContext ctx) {
        long cursor = parseCursor(ctx.arg(2));
        HashValue hash = HashCommands.readHash(ctx, ctx.key(1));
        if (hash == null) {
            ctx.reply().array(2);
            ctx.reply().bulk("0");
            ctx.reply().emptyArray();
            return;
        }
        long count = 10;
        byte[] pattern = null;
        for (int i = 3; i < ctx.argc(); i++) {
            boolean more = i + 1 < ctx.argc();
            if (ctx.is(i, "count") && more) {
                count = ctx.longArg(++i);
                if (count < 1) {
                    throw RedisError.SYNTAX;
                }
            } else if (ctx.is(i, "match") && more) {
                byte[] p = ctx.arg(++i);
                pattern = p.length == 1 && p[0] == '*' ? null : p;
            } else {
                throw RedisError.SYNTAX;
            }
        }
        List<Map.Entry<Bytes, byte[]>> page;
        long next;
        if (hash.encoding().equals("listpack")) {
            // Redis answers a listpack-encoded hash whole, in one call, whatever the cursor and COUNT.
            page = entries(hash);
            next = 0;
        } else {
            // Redis's dictScan over the fields: O(COUNT) buckets a call, whatever the hash's size.
            List<Map.Entry<Bytes, byte[]>> visited = new ArrayList<>();
            next = hash.scanHashtable(cursor, count, (field, value) -> visited.add(Map.entry(field, value)));
            page = visited;
        }
        List<Map.Entry<Bytes, byte[]>> kept = new ArrayList<>(page.size());
        for (Map.Entry<Bytes, byte[]> e : page) {
            if (pattern == null || GlobMatcher.matches(pattern, e.getKey().bytes(), false)) {
                kept.add(e);
            }
        }
        ctx.reply().array(2);
        ctx.reply().bulk(Long.toUnsignedString(next));
        ctx.reply().array(kept.size() * 2);
        for (Map.Entry<Bytes, byte[]> e : kept) {
            ctx.reply().bulk(e.getKey().bytes());
            ctx.reply().bulk(e.getValue());
        }
    }
}
