package dev.redsim.simulator.commands;

import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.commands.ZRangeCommands.By;
import dev.redsim.simulator.commands.ZSetOperationCommands.Op;

/** The sorted set commands of t_zset.c: the table entries; the bodies live in the Z* classes by job. */
public final class SortedSetCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        registerMembers(t);
        registerRanges(t);
        registerPops(t);
        registerSetOperations(t);
    }

    private static void registerMembers(CommandTable t) {
        t.handler("zadd", ZAddCommand::zadd);
        t.handler("zincrby", ZAddCommand::zincrby);
        t.handler("zrem", ZSetMemberCommands::zrem);
        t.handler("zcard", ZSetMemberCommands::zcard);
        t.handler("zscore", ZSetMemberCommands::zscore);
        t.handler("zmscore", ZSetMemberCommands::zmscore);
        t.handler("zrank", ctx -> ZSetMemberCommands.zrank(ctx, false));
        t.handler("zrevrank", ctx -> ZSetMemberCommands.zrank(ctx, true));
        t.handler("zrandmember", ZRandMemberCommand::zrandmember);
        t.handler("zscan", ZScanCommand::zscan);
    }

    private static void registerRanges(CommandTable t) {
        t.handler("zrange", ZRangeCommands::zrange);
        t.handler("zrangebyscore", ctx -> ZRangeCommands.legacy(ctx, By.SCORE, false));
        t.handler("zrevrangebyscore", ctx -> ZRangeCommands.legacy(ctx, By.SCORE, true));
        t.handler("zrangebylex", ctx -> ZRangeCommands.legacy(ctx, By.LEX, false));
        t.handler("zrevrangebylex", ctx -> ZRangeCommands.legacy(ctx, By.LEX, true));
        t.handler("zrevrange", ctx -> ZRangeCommands.legacy(ctx, By.RANK, true));
        t.handler("zrangestore", ZRangeCommands::zrangestore);
        t.handler("zcount", ZRangeCommands::zcount);
        t.handler("zlexcount", ZRangeCommands::zlexcount);
        t.handler("zremrangebyrank", ctx -> ZRangeCommands.zremrange(ctx, By.RANK));
        t.handler("zremrangebyscore", ctx -> ZRangeCommands.zremrange(ctx, By.SCORE));
        t.handler("zremrangebylex", ctx -> ZRangeCommands.zremrange(ctx, By.LEX));
    }

    private static void registerPops(CommandTable t) {
        t.handler("zpopmin", ctx -> ZPopCommands.zpop(ctx, false));
        t.handler("zpopmax", ctx -> ZPopCommands.zpop(ctx, true));
        t.handler("zmpop", ZPopCommands::zmpop);
    }

    private static void registerSetOperations(CommandTable t) {
        t.handler("zunion", ctx -> ZSetOperationCommands.read(ctx, Op.UNION));
        t.handler("zinter", ctx -> ZSetOperationCommands.read(ctx, Op.INTER));
        t.handler("zdiff", ctx -> ZSetOperationCommands.read(ctx, Op.DIFF));
        t.handler("zintercard", ZSetOperationCommands::intercard);
        t.handler("zunionstore", ctx -> ZSetOperationCommands.store(ctx, Op.UNION));
        t.handler("zinterstore", ctx -> ZSetOperationCommands.store(ctx, Op.INTER));
        t.handler("zdiffstore", ctx -> ZSetOperationCommands.store(ctx, Op.DIFF));
    }

}
