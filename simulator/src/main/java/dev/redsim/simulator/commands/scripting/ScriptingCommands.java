package dev.redsim.simulator.commands.scripting;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.scripting.Scripting;

/** EVAL, EVALSHA, their read-only forms, and SCRIPT (Redis's eval.c); the Lua side lives in the scripting package. */
public final class ScriptingCommands implements CommandFamily {
    private static final RedisError FLUSH_SYNTAX = new RedisError("ERR SCRIPT FLUSH only support SYNC|ASYNC option");
    private static final String[] HELP = {
        "SCRIPT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "DEBUG (YES|SYNC|NO)",
        "    Set the debug mode for subsequent scripts executed.",
        "EXISTS <sha1> [<sha1> ...]",
        "    Return information about the existence of the scripts in the script cache.",
        "FLUSH [ASYNC|SYNC]",
        "    Flush the Lua scripts cache. Very dangerous on replicas.",
        "    When called without the optional mode argument, the behavior is determined by the",
        "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
        "    * ASYNC: Asynchronously flush the scripts cache.",
        "    * SYNC: Synchronously flush the scripts cache.",
        "KILL",
        "    Kill the currently executing Lua script.",
        "LOAD <script>",
        "    Load a script into the scripts cache without executing it.",
        "HELP",
        "    Prints this help.",
    };

    private final Scripting scripting;

    /** @param scripting this server's Lua runtime (the scripting layer sits above the command table) */
    public ScriptingCommands(Scripting scripting) {
        this.scripting = scripting;
    }

    /**
     * A script is replicated by its effects (Redis 7.0 always does): the commands it ran go to the replicas, not
     * the EVAL itself.
     */
    private Scripting effectsOnly(CommandContext ctx) {
        ctx.preventPropagation();
        return scripting(ctx);
    }

    @Override
    public void register(CommandTable t) {
        t.handler("eval", ctx -> effectsOnly(ctx).eval(ctx, false, false));
        t.handler("evalsha", ctx -> effectsOnly(ctx).eval(ctx, true, false));
        t.handler("eval_ro", ctx -> effectsOnly(ctx).eval(ctx, false, true));
        t.handler("evalsha_ro", ctx -> effectsOnly(ctx).eval(ctx, true, true));
        t.handler("script|load", this::load);
        t.handler("script|exists", this::exists);
        t.handler("script|flush", this::flush);
        t.handler("script|kill", this::kill);
        t.handler("script|debug", this::debug);
        t.handler("script|help", this::help);
    }

    private Scripting scripting(CommandContext ctx) {
        return scripting;
    }

    private void load(CommandContext ctx) {
        ctx.reply().bulk(scripting(ctx).load(ctx.arg(2)));
    }

    private void exists(CommandContext ctx) {
        ctx.reply().array(ctx.argc() - 2);
        for (int i = 2; i < ctx.argc(); i++) {
            ctx.reply().integer(scripting(ctx).exists(ctx.text(i)) ? 1 : 0);
        }
    }

    private void flush(CommandContext ctx) {
        if (ctx.argc() > 3 || (ctx.argc() == 3 && !ctx.is(2, "sync") && !ctx.is(2, "async"))) {
            throw FLUSH_SYNTAX;
        }
        scripting(ctx).flush();
        ctx.reply().ok();
    }

    private void kill(CommandContext ctx) {
        scripting(ctx).killRunning(false);
        ctx.reply().ok();
    }

    private void debug(CommandContext ctx) {
        if (ctx.is(2, "no")) {
            ctx.reply().ok();
            return;
        }
        if (ctx.is(2, "yes") || ctx.is(2, "sync")) {
            throw new RedisError("ERR SCRIPT DEBUG is not supported by this server");
        }
        throw new RedisError("ERR Use SCRIPT DEBUG YES/SYNC/NO");
    }

    private void help(CommandContext ctx) {
        ctx.reply().array(HELP.length);
        for (String line : HELP) {
            ctx.reply().simple(line);
        }
    }
}
