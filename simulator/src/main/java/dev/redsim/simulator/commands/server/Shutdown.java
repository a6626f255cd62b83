package dev.redsim.simulator.commands.server;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.error.RedisError;

/**
 * SHUTDOWN [NOSAVE | SAVE] [NOW] [FORCE] [ABORT]: the server drops every client (the caller gets no reply) and
 * stops; the CLI then exits with status 0, as redis-server does, and an in-process simulator is closed. There
 * are no replicas to wait for, so NOW and FORCE change nothing and no shutdown is ever in progress to ABORT.
 * While a script runs past the busy threshold only SHUTDOWN NOSAVE is accepted, as in Redis.
 */
final class Shutdown {
    private Shutdown() {
    }

    static void run(CommandContext ctx) {
        boolean nosave = false;
        boolean save = false;
        boolean abort = false;
        for (int i = 1; i < ctx.argc(); i++) {
            if (ctx.is(i, "nosave")) {
                nosave = true;
            } else if (ctx.is(i, "save")) {
                save = true;
            } else if (ctx.is(i, "abort")) {
                abort = true;
            } else if (!ctx.is(i, "now") && !ctx.is(i, "force")) {
                throw RedisError.SYNTAX;
            }
        }
        if ((nosave && save) || (abort && ctx.argc() > 2)) {
            throw RedisError.SYNTAX;
        }
        if (abort) {
            throw new RedisError("ERR No shutdown in progress.");
        }
        if (!nosave && ctx.engine().busy().active()) {
            throw new RedisError(ctx.engine().busy().rejection());
        }
        // A save (asked for, or due to the save points) has nothing to write: the simulator keeps no files.
        ctx.engine().shutdown();
    }
}
