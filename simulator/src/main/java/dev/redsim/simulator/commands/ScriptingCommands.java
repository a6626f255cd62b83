package dev.redsim.simulator.commands;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.command.RedisError;
import dev.redsim.simulator.scripting.Scripting;

import static dev.redsim.simulator.command.CommandSpec.command;
import static dev.redsim.simulator.command.CommandSpec.subcommand;

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

    @Override
    public void register(CommandTable t) {
        t.add(eval("eval", "noscript stale skip_monitor no_mandatory_keys", "RW access update")
                .summary("Run a Lua script on the server").handler(ctx -> scripting(ctx).eval(ctx, false, false))
                .build());
        t.add(eval("evalsha", "noscript stale skip_monitor no_mandatory_keys", "RW access update")
                .summary("Run a cached Lua script by its SHA1").handler(ctx -> scripting(ctx).eval(ctx, true, false))
                .build());
        t.add(eval("eval_ro", "readonly noscript stale skip_monitor no_mandatory_keys", "RO access")
                .since("7.0.0").summary("Run a Lua script that may only read")
                .handler(ctx -> scripting(ctx).eval(ctx, false, true)).build());
        t.add(eval("evalsha_ro", "readonly noscript stale skip_monitor no_mandatory_keys", "RO access")
                .since("7.0.0").summary("Run a cached Lua script that may only read")
                .handler(ctx -> scripting(ctx).eval(ctx, true, true)).build());
        t.add(command("script", -2).group("scripting").since("2.6.0")
                .summary("A container for commands that manage the script cache").build());
        t.add(subcommand("script", "load", 3).flags("noscript stale").group("scripting").since("2.6.0")
                .tips("request_policy:all_nodes response_policy:all_succeeded")
                .summary("Compile and cache a script without running it").handler(this::load).build());
        t.add(subcommand("script", "exists", -3).flags("noscript").group("scripting").since("2.6.0")
                .tips("request_policy:all_shards response_policy:agg_logical_and")
                .summary("Which of the given SHA1s are cached").handler(this::exists).build());
        t.add(subcommand("script", "flush", -2).flags("noscript").group("scripting").since("2.6.0")
                .tips("request_policy:all_nodes response_policy:all_succeeded")
                .summary("Empty the script cache").handler(this::flush).build());
        t.add(subcommand("script", "kill", 2).flags("noscript allow_busy").group("scripting").since("2.6.0")
                .tips("request_policy:all_shards response_policy:one_succeeded")
                .summary("Stop the running script if it wrote nothing").handler(this::kill).build());
        t.add(subcommand("script", "debug", 3).flags("noscript").group("scripting").since("3.2.0")
                .summary("Set the script debugger mode").handler(this::debug).build());
        t.add(subcommand("script", "help", 2).flags("loading stale").group("scripting").since("5.0.0")
                .summary("Show what SCRIPT can do").handler(this::help).build());
    }

    private static dev.redsim.simulator.command.CommandSpec.Builder eval(String name, String flags, String keyFlags) {
        return command(name, -3).flags(flags).keys(0, 0, 0).movableKeys(args -> NumkeysKeys.find(args, 2, 0))
                .keySpecFlags(keyFlags)
                .keynumSpec(keyNotes(keyFlags), 2, 0, 1, 1).group("scripting").since("2.6.0");
    }

    /** Redis's notes on the keys of scripts: it cannot know how they are used. */
    static String keyNotes(String keyFlags) {
        return "We cannot tell how the keys will be used so we assume the worst, "
                + (keyFlags.startsWith("RW") ? "RW and UPDATE" : "RO and ACCESS");
    }

    private static Scripting scripting(CommandContext ctx) {
        return ctx.engine().scripting();
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
