package dev.redsim.simulator.commands.server;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Numbers;

/** DEBUG, as a Redis 7.0 answers it (the cluster-only READONLY/READWRITE are in commands.cluster). */
public final class DebugCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        t.handler("debug", this::debug);
    }

    /**
     * Redis 7.0 refuses DEBUG unless enable-debug-command allows it (default "no"). When allowed, LOG and
     * SLEEP work, and SET-ACTIVE-EXPIRE turns the active expiry sweep off or on; other subcommands get the unknown-subcommand answer.
     */
    private void debug(CommandContext ctx) {
        String enabled = ctx.engine().config().get("enable-debug-command");
        boolean local = ctx.client().address().startsWith("127.") || ctx.client().address().startsWith("0:0:0:0:0:0:0:1");
        if (!"yes".equals(enabled) && !("local".equals(enabled) && local)) {
            throw new RedisError("ERR DEBUG command not allowed. If the enable-debug-command option is set to "
                    + "\"local\", you can run it from a local connection, otherwise you need to set this option "
                    + "in the configuration file, and then restart the server.");
        }
        if (ctx.is(1, "log") && ctx.argc() == 3) {
            ctx.reply().ok();
        } else if (ctx.is(1, "sleep") && ctx.argc() == 3) {
            sleep(ctx.doubleArg(2));
            ctx.reply().ok();
        } else if (ctx.is(1, "set-active-expire") && ctx.argc() == 3) {
            // atoi: anything that does not read as a non-zero number turns the sweep off
            ctx.engine().activeExpireEnabled(Numbers.parseLongStrict(ctx.arg(2)) != null
                    && Numbers.parseLongStrict(ctx.arg(2)) != 0);
            ctx.reply().ok();
        } else {
            throw new RedisError("ERR unknown subcommand '" + ctx.text(1) + "'. Try DEBUG HELP.");
        }
    }

    /** DEBUG SLEEP blocks the server, as in Redis (that is its purpose). */
    private static void sleep(double seconds) {
        long millis = (long) (seconds * 1000);
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
