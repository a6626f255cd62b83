package dev.redsim.simulator.commands.sortedsets;

import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.commands.sortedsets.SortedSetRangeCommands.By;
import dev.redsim.simulator.commands.sortedsets.SortedSetAlgebraCommands.Op;

/** The sorted set commands of t_zset.c: the table entries; the bodies live in the SortedSet*Commands classes by job. */
public final class SortedSetCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        registerMembers(t);
        registerRanges(t);
        registerPops(t);
        registerSetOperations(t);
    }

    private static void registerMembers(CommandTable t) {
        t.handler("zadd", SortedSetAddCommands::zadd);
        t.handler("zincrby", SortedSetAddCommands::zincrby);
        t.handler("zrem", SortedSetMemberCommands::zrem);
        t.handler("zcard", SortedSetMemberCommands::zcard);
        t.handler("zscore", SortedSetMemberCommands::zscore);
        t.handler("zmscore", SortedSetMemberCommands::zmscore);
        t.handler("zrank", ctx -> SortedSetMemberCommands.zrank(ctx, false));
        t.handler("zrevrank", ctx -> SortedSetMemberCommands.zrank(ctx, true));
        t.handler("zrandmember", SortedSetRandomCommands::zrandmember);
        t.handler("zscan", SortedSetScanCommands::zscan);
    }

    private static void registerRanges(CommandTable t) {
        t.handler("zrange", SortedSetRangeCommands::zrange);
        t.handler("zrangebyscore", ctx -> SortedSetRangeCommands.legacy(ctx, By.SCORE, false));
        t.handler("zrevrangebyscore", ctx -> SortedSetRangeCommands.legacy(ctx, By.SCORE, true));
        t.handler("zrangebylex", ctx -> SortedSetRangeCommands.legacy(ctx, By.LEX, false));
        t.handler("zrevrangebylex", ctx -> SortedSetRangeCommands.legacy(ctx, By.LEX, true));
        t.handler("zrevrange", ctx -> SortedSetRangeCommands.legacy(ctx, By.RANK, true));
        t.handler("zrangestore", SortedSetRangeCommands::zrangestore);
        t.handler("zcount", SortedSetRangeCommands::zcount);
        t.handler("zlexcount", SortedSetRangeCommands::zlexcount);
        t.handler("zremrangebyrank", ctx -> SortedSetRangeCommands.zremrange(ctx, By.RANK));
        t.handler("zremrangebyscore", ctx -> SortedSetRangeCommands.zremrange(ctx, By.SCORE));
        t.handler("zremrangebylex", ctx -> SortedSetRangeCommands.zremrange(ctx, By.LEX));
    }

    private static void registerPops(CommandTable t) {
        t.handler("zpopmin", ctx -> SortedSetPopCommands.zpop(ctx, false));
        t.handler("zpopmax", ctx -> SortedSetPopCommands.zpop(ctx, true));
        t.handler("zmpop", SortedSetPopCommands::zmpop);
    }

    private static void registerSetOperations(CommandTable t) {
        t.handler("zunion", ctx -> SortedSetAlgebraCommands.read(ctx, Op.UNION));
        t.handler("zinter", ctx -> SortedSetAlgebraCommands.read(ctx, Op.INTER));
        t.handler("zdiff", ctx -> SortedSetAlgebraCommands.read(ctx, Op.DIFF));
        t.handler("zintercard", SortedSetAlgebraCommands::intercard);
        t.handler("zunionstore", ctx -> SortedSetAlgebraCommands.store(ctx, Op.UNION));
        t.handler("zinterstore", ctx -> SortedSetAlgebraCommands.store(ctx, Op.INTER));
        t.handler("zdiffstore", ctx -> SortedSetAlgebraCommands.store(ctx, Op.DIFF));
    }

}
