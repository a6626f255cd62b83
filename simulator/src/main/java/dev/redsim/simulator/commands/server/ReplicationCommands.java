package dev.redsim.simulator.commands.server;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Numbers;

/**
 * The replication commands a standalone master answers: ROLE (a master with no replicas, offset 0) and
 * REPLICAOF / SLAVEOF NO ONE (it already is a master). Becoming a replica of another server is refused after
 * Redis's own checks: the simulator does not replicate from a master.
 */
public final class ReplicationCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        t.handler("role", ctx -> {
            ctx.reply().array(3);
            ctx.reply().bulk("master");
            ctx.reply().integer(0);
            ctx.reply().emptyArray();
        });
        t.handler("replicaof", ReplicationCommands::replicaOf);
        t.handler("slaveof", ReplicationCommands::replicaOf);
    }

    private static void replicaOf(CommandContext ctx) {
        if (ctx.is(1, "no") && ctx.is(2, "one")) {
            ctx.reply().ok();
            return;
        }
        Long port = Numbers.parseLongStrict(ctx.arg(2));
        if (port == null) {
            throw new RedisError("ERR Invalid master port");
        }
        throw new RedisError("ERR redsim does not replicate from a master: REPLICAOF host port is not supported");
    }
}
