package dev.redsim.simulator.commands.transactions;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.Engine;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.server.MultiState;
import dev.redsim.simulator.server.MultiState.QueuedCommand;

import java.util.List;

/**
 * MULTI, EXEC, DISCARD, WATCH, UNWATCH (Redis's multi.c). Queueing itself happens in the engine's dispatch,
 * which sees every command of a client in MULTI before it would run.
 */
public final class TransactionCommands implements CommandFamily {
    private static final RedisError NESTED = new RedisError("ERR MULTI calls can not be nested");
    private static final RedisError EXEC_WITHOUT_MULTI = new RedisError("ERR EXEC without MULTI");
    private static final RedisError DISCARD_WITHOUT_MULTI = new RedisError("ERR DISCARD without MULTI");
    private static final RedisError WATCH_IN_MULTI = new RedisError("ERR WATCH inside MULTI is not allowed");
    private static final RedisError EXECABORT =
            new RedisError("EXECABORT Transaction discarded because of previous errors.");

    @Override
    public void register(CommandTable t) {
        t.handler("multi", this::multi);
        t.handler("exec", this::exec);
        t.handler("discard", this::discard);
        t.handler("watch", this::watch);
        t.handler("unwatch", this::unwatch);
    }

    private void multi(CommandContext ctx) {
        MultiState state = ctx.client().multiState();
        if (state.active()) {
            throw NESTED;
        }
        state.begin();
        ctx.reply().ok();
    }

    private void discard(CommandContext ctx) {
        if (!ctx.client().multiState().active()) {
            throw DISCARD_WITHOUT_MULTI;
        }
        ctx.engine().discardTransaction(ctx.client());
        ctx.reply().ok();
    }

    /**
     * Fails as a whole when queueing went wrong (EXECABORT) or a watched key changed or expired (null array);
     * otherwise runs the queue back to back, each reply or run-time error in place.
     */
    private void exec(CommandContext ctx) {
        ClientConnection client = ctx.client();
        MultiState state = client.multiState();
        Engine engine = ctx.engine();
        if (!state.active()) {
            throw EXEC_WITHOUT_MULTI;
        }
        if (engine.watchedKeyExpired(client)) {
            state.markDirtyCas();
        }
        if (state.dirtyExec()) {
            engine.discardTransaction(client);
            throw EXECABORT;
        }
        if (state.dirtyCas()) {
            engine.discardTransaction(client);
            ctx.reply().nullArray();
            return;
        }
        engine.unwatchAll(client); // our own writes below must not count as changes to what we watched
        List<QueuedCommand> queued = List.copyOf(state.queued());
        ctx.reply().array(queued.size());
        for (QueuedCommand command : queued) {
            // resolved by the dispatch that queued it; the server keeps it opaque (the table sits above it)
            CommandSpec spec = (CommandSpec) command.command();
            if (ctx.processor().permittedAtExec(client, command.args(), spec)) { // the ACL may have changed
                ctx.processor().callNested(client, command.args(), spec);
            }
        }
        engine.discardTransaction(client);
    }

    private void watch(CommandContext ctx) {
        ClientConnection client = ctx.client();
        if (client.multiState().active()) {
            throw WATCH_IN_MULTI;
        }
        // Once a watched key changed the transaction fails anyway: more watches would change nothing.
        if (!client.multiState().dirtyCas()) {
            for (int i = 1; i < ctx.argc(); i++) {
                ctx.engine().watch(client, ctx.key(i));
            }
        }
        ctx.reply().ok();
    }

    private void unwatch(CommandContext ctx) {
        ctx.engine().unwatchAll(ctx.client());
        ctx.client().multiState().clearDirtyCas();
        ctx.reply().ok();
    }
}
