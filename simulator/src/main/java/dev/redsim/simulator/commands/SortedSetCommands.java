package dev.redsim.simulator.commands;

import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.commands.ZRangeCommands.By;
import dev.redsim.simulator.commands.ZSetOperationCommands.Op;

import static dev.redsim.simulator.command.CommandSpec.command;

/** The sorted set commands of t_zset.c: the table entries; the bodies live in the Z* classes by job. */
public final class SortedSetCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        registerMembers(t);
        registerRanges(t);
        registerPops(t);
        registerSetOperations(t);
    }

    private static CommandSpec.Builder zset(String name, int arity, String flags, String since) {
        return command(name, arity).flags(flags).keys(1, 1, 1).group("sorted-set").since(since);
    }

    private static void registerMembers(CommandTable t) {
        t.add(zset("zadd", -4, "write denyoom fast", "1.2.0")
                .summary("Add members with scores to a sorted set, or update their scores")
                .handler(ZAddCommand::zadd).build());
        t.add(zset("zincrby", 4, "write denyoom fast", "1.2.0")
                .summary("Add an increment to a member's score").handler(ZAddCommand::zincrby).build());
        t.add(zset("zrem", -3, "write fast", "1.2.0")
                .summary("Remove members from a sorted set").handler(ZSetMemberCommands::zrem).build());
        t.add(zset("zcard", 2, "readonly fast", "1.2.0")
                .summary("Count the members of a sorted set").handler(ZSetMemberCommands::zcard).build());
        t.add(zset("zscore", 3, "readonly fast", "1.2.0")
                .summary("Get one member's score").handler(ZSetMemberCommands::zscore).build());
        t.add(zset("zmscore", -3, "readonly fast", "6.2.0")
                .summary("Get the scores of several members").handler(ZSetMemberCommands::zmscore).build());
        t.add(zset("zrank", 3, "readonly fast", "2.0.0")
                .summary("Get a member's position in ascending score order")
                .handler(ctx -> ZSetMemberCommands.zrank(ctx, false)).build());
        t.add(zset("zrevrank", 3, "readonly fast", "2.0.0")
                .summary("Get a member's position in descending score order")
                .handler(ctx -> ZSetMemberCommands.zrank(ctx, true)).build());
        t.add(zset("zrandmember", -2, "readonly", "6.2.0")
                .summary("Pick random members, optionally with their scores")
                .handler(ZRandMemberCommand::zrandmember).build());
        t.add(zset("zscan", -3, "readonly", "2.8.0")
                .summary("Iterate over members and scores with a cursor").handler(ZScanCommand::zscan).build());
    }

    private static void registerRanges(CommandTable t) {
        t.add(zset("zrange", -4, "readonly", "1.2.0")
                .summary("Read a range of members by rank, score or member name")
                .handler(ZRangeCommands::zrange).build());
        t.add(zset("zrangebyscore", -4, "readonly", "1.0.5")
                .summary("Read members within a score interval, ascending")
                .handler(ctx -> ZRangeCommands.legacy(ctx, By.SCORE, false)).build());
        t.add(zset("zrevrangebyscore", -4, "readonly", "2.2.0")
                .summary("Read members within a score interval, descending")
                .handler(ctx -> ZRangeCommands.legacy(ctx, By.SCORE, true)).build());
        t.add(zset("zrangebylex", -4, "readonly", "2.8.9")
                .summary("Read members within a name interval, ascending")
                .handler(ctx -> ZRangeCommands.legacy(ctx, By.LEX, false)).build());
        t.add(zset("zrevrangebylex", -4, "readonly", "2.8.9")
                .summary("Read members within a name interval, descending")
                .handler(ctx -> ZRangeCommands.legacy(ctx, By.LEX, true)).build());
        t.add(zset("zrevrange", -4, "readonly", "1.2.0")
                .summary("Read a range of members by rank, highest score first")
                .handler(ctx -> ZRangeCommands.legacy(ctx, By.RANK, true)).build());
        t.add(command("zrangestore", -5).flags("write denyoom").keys(1, 2, 1).group("sorted-set").since("6.2.0")
                .summary("Copy a range of members into another key").handler(ZRangeCommands::zrangestore).build());
        t.add(zset("zcount", 4, "readonly fast", "2.0.0")
                .summary("Count members within a score interval").handler(ZRangeCommands::zcount).build());
        t.add(zset("zlexcount", 4, "readonly fast", "2.8.9")
                .summary("Count members within a name interval").handler(ZRangeCommands::zlexcount).build());
        t.add(zset("zremrangebyrank", 4, "write", "2.0.0")
                .summary("Remove members within a rank interval")
                .handler(ctx -> ZRangeCommands.zremrange(ctx, By.RANK)).build());
        t.add(zset("zremrangebyscore", 4, "write", "1.2.0")
                .summary("Remove members within a score interval")
                .handler(ctx -> ZRangeCommands.zremrange(ctx, By.SCORE)).build());
        t.add(zset("zremrangebylex", 4, "write", "2.8.9")
                .summary("Remove members within a name interval")
                .handler(ctx -> ZRangeCommands.zremrange(ctx, By.LEX)).build());
    }

    private static void registerPops(CommandTable t) {
        t.add(zset("zpopmin", -2, "write fast", "5.0.0")
                .summary("Remove and return the lowest-scored members")
                .handler(ctx -> ZPopCommands.zpop(ctx, false)).build());
        t.add(zset("zpopmax", -2, "write fast", "5.0.0")
                .summary("Remove and return the highest-scored members")
                .handler(ctx -> ZPopCommands.zpop(ctx, true)).build());
        t.add(command("zmpop", -4).flags("write").keys(0, 0, 0).movableKeys(ZPopCommands::mpopKeys)
                .group("sorted-set").since("7.0.0")
                .summary("Pop the lowest or highest members of the first non-empty sorted set among several keys")
                .handler(ZPopCommands::zmpop).build());
    }

    private static void registerSetOperations(CommandTable t) {
        t.add(numkeysRead("zunion", "Union of sorted sets").handler(ctx -> ZSetOperationCommands.read(ctx, Op.UNION)).build());
        t.add(numkeysRead("zinter", "Intersection of sorted sets")
                .handler(ctx -> ZSetOperationCommands.read(ctx, Op.INTER)).build());
        t.add(numkeysRead("zdiff", "Members of the first sorted set missing from the others")
                .handler(ctx -> ZSetOperationCommands.read(ctx, Op.DIFF)).build());
        t.add(command("zintercard", -3).flags("readonly").keys(0, 0, 0)
                .movableKeys(args -> NumkeysKeys.find(args, 1, 0)).group("sorted-set").since("7.0.0")
                .summary("Count the members an intersection of sorted sets would hold")
                .handler(ZSetOperationCommands::intercard).build());
        t.add(numkeysStore("zunionstore", "2.0.0", "Store the union of sorted sets")
                .handler(ctx -> ZSetOperationCommands.store(ctx, Op.UNION)).build());
        t.add(numkeysStore("zinterstore", "2.0.0", "Store the intersection of sorted sets")
                .handler(ctx -> ZSetOperationCommands.store(ctx, Op.INTER)).build());
        t.add(numkeysStore("zdiffstore", "6.2.0", "Store the difference of sorted sets")
                .handler(ctx -> ZSetOperationCommands.store(ctx, Op.DIFF)).build());
    }

    private static CommandSpec.Builder numkeysRead(String name, String summary) {
        return command(name, -3).flags("readonly").keys(0, 0, 0).movableKeys(args -> NumkeysKeys.find(args, 1, 0))
                .group("sorted-set").since("6.2.0").summary(summary);
    }

    private static CommandSpec.Builder numkeysStore(String name, String since, String summary) {
        return command(name, -4).flags("write denyoom").keys(1, 1, 1)
                .movableKeys(args -> NumkeysKeys.find(args, 2, 1)).group("sorted-set").since(since).summary(summary);
    }
}
