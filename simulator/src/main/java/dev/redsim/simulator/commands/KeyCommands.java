package dev.redsim.simulator.commands;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.RedisValue;

import static dev.redsim.simulator.command.CommandSpec.command;

/** The generic key commands of db.c and expire.c. */
public final class KeyCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        t.add(command("del", -2).flags("write").keys(1, -1, 1).group("generic")
                .summary("Delete a key").handler(this::del).build());
        t.add(command("unlink", -2).flags("write fast").keys(1, -1, 1).group("generic").since("4.0.0")
                .summary("Delete a key asynchronously in another thread. Otherwise it is just as DEL, but non blocking.")
                .handler(this::del).build());
        t.add(command("exists", -2).flags("readonly fast").keys(1, -1, 1).group("generic")
                .summary("Determine if a key exists").handler(this::exists).build());
        t.add(command("type", 2).flags("readonly fast").keys(1, 1, 1).group("generic")
                .summary("Determine the type stored at key").handler(this::type).build());
    }

    private void del(CommandContext ctx) {
        long deleted = 0;
        for (int i = 1; i < ctx.argc(); i++) {
            Bytes key = ctx.key(i);
            ctx.db().expireIfNeeded(key);
            if (ctx.db().delete(key)) {
                ctx.signalModified(key);
                ctx.notifyEvent(KeyspaceEvents.GENERIC, "del", key);
                ctx.dirty(1);
                deleted++;
            }
        }
        ctx.reply().integer(deleted);
    }

    private void exists(CommandContext ctx) {
        long count = 0;
        for (int i = 1; i < ctx.argc(); i++) {
            if (ctx.db().getForRead(ctx.key(i)) != null) {
                count++;
            }
        }
        ctx.reply().integer(count);
    }

    private void type(CommandContext ctx) {
        RedisValue value = ctx.db().get(ctx.key(1));
        ctx.reply().simple(value == null ? "none" : value.typeName());
    }
}
