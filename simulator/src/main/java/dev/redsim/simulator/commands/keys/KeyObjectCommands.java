package dev.redsim.simulator.commands.keys;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.keyspace.RedisValue;
import dev.redsim.simulator.keyspace.StringValue;

/** OBJECT ENCODING / IDLETIME / FREQ / REFCOUNT / HELP: what Redis tells about a value's internals. */
public final class KeyObjectCommands implements CommandFamily {
    /** Redis shares the integers 0..9999 between keys (OBJ_SHARED_INTEGERS) unless an LRU/LFU policy is set. */
    private static final long SHARED_INTEGERS = 10000;
    private static final long SHARED_REFCOUNT = Integer.MAX_VALUE;
    private static final RedisError NO_LFU = new RedisError("ERR An LFU maxmemory policy is not selected, access "
            + "frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data "
            + "will take some time to adjust.");
    private static final RedisError LFU_SELECTED = new RedisError("ERR An LFU maxmemory policy is selected, idle "
            + "time not tracked. Please note that when switching between policies at runtime LRU and LFU data will "
            + "take some time to adjust.");
    private static final String[] HELP = {
        "OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "ENCODING <key>",
        "    Return the kind of internal representation used in order to store the value",
        "    associated with a <key>.",
        "FREQ <key>",
        "    Return the access frequency index of the <key>. The returned integer is",
        "    proportional to the logarithm of the recent access frequency of the key.",
        "IDLETIME <key>",
        "    Return the idle time of the <key>, that is the approximated number of",
        "    seconds elapsed since the last access to the key.",
        "REFCOUNT <key>",
        "    Return the number of references of the value associated with the specified",
        "    <key>.",
        "HELP",
        "    Prints this help.",
    };

    @Override
    public void register(CommandTable t) {
        t.handler("object|encoding", this::encoding);
        t.handler("object|idletime", this::idletime);
        t.handler("object|freq", this::freq);
        t.handler("object|refcount", this::refcount);
        t.handler("object|help", this::help);
    }

    /** The value without marking it accessed; null (after replying a null) when absent. */
    private static RedisValue lookup(CommandContext ctx) {
        RedisValue value = ctx.db().peekForReadNoNotify(ctx.key(2));
        if (value == null) {
            ctx.reply().nullBulk();
        }
        return value;
    }

    private static boolean lfuPolicy(CommandContext ctx) {
        String policy = ctx.engine().config().get("maxmemory-policy");
        return policy != null && policy.contains("lfu");
    }

    private void encoding(CommandContext ctx) {
        RedisValue value = lookup(ctx);
        if (value != null) {
            ctx.reply().bulk(value.encoding());
        }
    }

    private void idletime(CommandContext ctx) {
        RedisValue value = lookup(ctx);
        if (value == null) {
            return;
        }
        if (lfuPolicy(ctx)) {
            throw LFU_SELECTED;
        }
        ctx.reply().integer(ctx.db().idleMillis(ctx.key(2)) / 1000);
    }

    private void freq(CommandContext ctx) {
        RedisValue value = lookup(ctx);
        if (value == null) {
            return;
        }
        if (!lfuPolicy(ctx)) {
            throw NO_LFU;
        }
        // Redis's LFUDecrAndReturn: the counter as it stands now, its decay applied but not stored
        long decay = ctx.engine().config().getLong("lfu-decay-time");
        ctx.reply().integer(((dev.redsim.simulator.keyspace.AccessTracked) value).lfuDecayed(ctx.now(), decay));
    }

    private void refcount(CommandContext ctx) {
        RedisValue value = lookup(ctx);
        if (value != null) {
            ctx.reply().integer(isSharedInteger(ctx, value) ? SHARED_REFCOUNT : 1);
        }
    }

    private static boolean isSharedInteger(CommandContext ctx, RedisValue value) {
        if (!(value instanceof StringValue s) || !"int".equals(s.encoding())) {
            return false;
        }
        String policy = ctx.engine().config().get("maxmemory-policy");
        boolean evictsByUse = policy != null && (policy.contains("lru") || policy.contains("lfu"));
        if (evictsByUse && ctx.engine().config().getLong("maxmemory") != 0) {
            return false;
        }
        Long n = Numbers.parseLongStrict(s.bytes());
        return n != null && n >= 0 && n < SHARED_INTEGERS;
    }

    private void help(CommandContext ctx) {
        ctx.reply().array(HELP.length);
        for (String line : HELP) {
            ctx.reply().simple(line);
        }
    }
}
