package dev.redsim.simulator.commands.scripting;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.scripting.FunctionLibrary;
import dev.redsim.simulator.scripting.Functions;
import dev.redsim.simulator.scripting.LibraryFunction;
import dev.redsim.simulator.engine.BusyScript;
import dev.redsim.simulator.scripting.Scripting;
import dev.redsim.simulator.util.GlobMatcher;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** FUNCTION and FCALL / FCALL_RO (Redis 7.0's functions.c); the libraries live in scripting.Functions. */
public final class FunctionCommands implements CommandFamily {
    private static final String[] HELP = {
        "LOAD [REPLACE] <FUNCTION CODE>",
        "Create a new library with the given library name and code.",
        "DELETE <LIBRARY NAME>",
        "Delete the given library.",
        "LIST [LIBRARYNAME PATTERN] [WITHCODE]",
        "Return general information on all the libraries:\n    * Library name\n    * The engine used to run the"
            + " Library\n    * Library description\n    * Functions list\n    * Library code (if WITHCODE is given)\n"
            + "    It also possible to get only function that matches a pattern using LIBRARYNAME argument.",
        "STATS",
        "Return information about the current function running:\n    * Function name\n    * Command used to run"
            + " the function\n    * Duration in MS that the function is running\n    If no function is running,"
            + " return nil\n    In addition, returns a list of available engines.",
        "KILL",
        "Kill the current running function.",
        "FLUSH [ASYNC|SYNC]",
        "Delete all the libraries.\n    When called without the optional mode argument, the behavior is"
            + " determined by the\n    lazyfree-lazy-user-flush configuration directive. Valid modes are:\n"
            + "    * ASYNC: Asynchronously flush the libraries.\n    * SYNC: Synchronously flush the libraries.",
        "DUMP",
        "Return a serialized payload representing the current libraries, can be restored using FUNCTION RESTORE"
            + " command",
        "RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]",
        "Restore the libraries represented by the given payload, it is possible to give a restore policy to\n"
            + "    control how to handle existing libraries (default APPEND):\n"
            + "    * FLUSH: delete all existing libraries.\n"
            + "    * APPEND: appends the restored libraries to the existing libraries. On collision, abort.\n"
            + "    * REPLACE: appends the restored libraries to the existing libraries, On collision, replace the old\n"
            + "      libraries with the new libraries (notice that even on this option there is a chance of failure\n"
            + "      in case of functions name collision with another library).",
        "HELP",
        "Prints this help.",
    };

    private final Scripting scripting;

    /** @param scripting this server's Lua runtime (the scripting layer sits above the command table) */
    public FunctionCommands(Scripting scripting) {
        this.scripting = scripting;
    }

    @Override
    public void register(CommandTable t) {
        // replicated by their effects, as scripts are: the FCALL itself is not
        t.handler("fcall", ctx -> {
            ctx.preventPropagation();
            functions(ctx).call(ctx, false);
        });
        t.handler("fcall_ro", ctx -> {
            ctx.preventPropagation();
            functions(ctx).call(ctx, true);
        });
        t.handler("function|load", this::load);
        t.handler("function|delete", this::delete);
        t.handler("function|flush", this::flush);
        t.handler("function|list", this::list);
        t.handler("function|dump", this::dump);
        t.handler("function|restore", this::restore);
        t.handler("function|stats", this::stats);
        t.handler("function|kill", this::kill);
        t.handler("function|help", this::help);
    }

    private Functions functions(CommandContext ctx) {
        return scripting.functions();
    }

    private void load(CommandContext ctx) {
        boolean replace = false;
        int pos = 2;
        while (pos < ctx.argc() - 1) {
            if (!ctx.is(pos, "replace")) {
                throw new RedisError("ERR Unknown option given: " + ctx.text(pos));
            }
            replace = true;
            pos++;
        }
        String name = functions(ctx).load(ctx.arg(pos), replace);
        ctx.dirty(1);
        ctx.reply().bulk(name.getBytes(StandardCharsets.ISO_8859_1));
    }

    private void delete(CommandContext ctx) {
        functions(ctx).delete(new String(ctx.arg(2), StandardCharsets.ISO_8859_1));
        ctx.dirty(1);
        ctx.reply().ok();
    }

    private void flush(CommandContext ctx) {
        if (ctx.argc() > 3) {
            throw subcommandSyntax(ctx);
        }
        if (ctx.argc() == 3 && !ctx.is(2, "sync") && !ctx.is(2, "async")) {
            throw new RedisError("ERR FUNCTION FLUSH only supports SYNC|ASYNC option");
        }
        functions(ctx).flush();
        ctx.dirty(1);
        ctx.reply().ok();
    }

    private static RedisError subcommandSyntax(CommandContext ctx) {
        return ctx.subcommandSyntaxError();
    }

    private void list(CommandContext ctx) {
        boolean withCode = false;
        byte[] pattern = null;
        for (int i = 2; i < ctx.argc(); i++) {
            if (!withCode && ctx.is(i, "withcode")) {
                withCode = true;
                continue;
            }
            if (pattern == null && ctx.is(i, "libraryname")) {
                if (i >= ctx.argc() - 1) {
                    throw new RedisError("ERR library name argument was not given");
                }
                pattern = ctx.arg(++i);
                continue;
            }
            throw new RedisError("ERR Unknown argument " + ctx.text(i));
        }
        List<FunctionLibrary> shown = new ArrayList<>();
        for (FunctionLibrary library : functions(ctx).libraries()) {
            if (pattern == null || GlobMatcher.matches(pattern, library.name().getBytes(StandardCharsets.ISO_8859_1),
                    true)) {
                shown.add(library);
            }
        }
        Reply r = ctx.reply();
        r.array(shown.size());
        for (FunctionLibrary library : shown) {
            r.map(withCode ? 4 : 3);
            r.bulk("library_name");
            r.bulk(library.name().getBytes(StandardCharsets.ISO_8859_1));
            r.bulk("engine");
            r.bulk(FunctionLibrary.ENGINE);
            r.bulk("functions");
            r.array(library.functions().size());
            for (LibraryFunction f : library.functions().values()) {
                writeFunction(r, f);
            }
            if (withCode) {
                r.bulk("library_code");
                r.bulk(library.code());
            }
        }
    }

    private static void writeFunction(Reply r, LibraryFunction f) {
        r.map(3);
        r.bulk("name");
        r.bulk(f.name().getBytes(StandardCharsets.ISO_8859_1));
        r.bulk("description");
        if (f.description() == null) {
            r.nullBulk();
        } else {
            r.bulk(f.description());
        }
        r.bulk("flags");
        r.set(f.flags().size());
        for (String flag : f.flags()) {
            r.simple(flag);
        }
    }

    private void dump(CommandContext ctx) {
        ctx.reply().bulk(functions(ctx).dump());
    }

    private void restore(CommandContext ctx) {
        if (ctx.argc() > 4) {
            throw subcommandSyntax(ctx);
        }
        Functions.RestorePolicy policy = Functions.RestorePolicy.APPEND;
        if (ctx.argc() == 4) {
            if (ctx.is(3, "append")) {
                policy = Functions.RestorePolicy.APPEND;
            } else if (ctx.is(3, "replace")) {
                policy = Functions.RestorePolicy.REPLACE;
            } else if (ctx.is(3, "flush")) {
                policy = Functions.RestorePolicy.FLUSH;
            } else {
                throw new RedisError("ERR Wrong restore policy given, value should be either FLUSH, APPEND or"
                        + " REPLACE.");
            }
        }
        functions(ctx).restore(ctx.arg(2), policy);
        ctx.dirty(1);
        ctx.reply().ok();
    }

    /** The libraries, and the function running in busy mode (FUNCTION STATS is allowed while busy). */
    private void stats(CommandContext ctx) {
        BusyScript running = ctx.engine().busy().script();
        if (running != null && running.eval()) {
            throw new RedisError(ctx.engine().busy().rejection()); // Redis 7.0 refuses it during a busy EVAL
        }
        Functions functions = functions(ctx);
        Reply r = ctx.reply();
        r.map(2);
        r.bulk("running_script");
        if (running == null) {
            r.nullBulk();
        } else {
            byte[][] command = running.command();
            r.map(3);
            r.bulk("name");
            r.bulk(command[1]);
            r.bulk("command");
            r.array(command.length);
            for (byte[] arg : command) {
                r.bulk(arg);
            }
            r.bulk("duration_ms");
            r.integer((System.nanoTime() - running.startNanos()) / 1_000_000);
        }
        r.bulk("engines");
        r.map(1);
        r.bulk(FunctionLibrary.ENGINE);
        r.map(2);
        r.bulk("libraries_count");
        r.integer(functions.libraries().size());
        r.bulk("functions_count");
        r.integer(functions.functionCount());
    }

    private void kill(CommandContext ctx) {
        scripting.killRunning(true);
        ctx.reply().ok();
    }

    private void help(CommandContext ctx) {
        List<String> lines = new ArrayList<>();
        for (String entry : HELP) {
            lines.addAll(List.of(entry.split("\n")));
        }
        Reply r = ctx.reply();
        r.array(lines.size() + 1);
        r.simple("FUNCTION <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
        for (int i = 0; i < HELP.length; i++) {
            String[] parts = HELP[i].split("\n");
            for (int j = 0; j < parts.length; j++) {
                r.simple(i % 2 == 1 && j == 0 ? "    " + parts[j] : parts[j]);
            }
        }
    }
}
