package dev.redsim.simulator.commands.server;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.engine.SlowLog;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.protocol.Reply;

import java.util.List;

/** SLOWLOG GET / LEN / RESET / HELP over the engine's {@link SlowLog}. */
public final class SlowlogCommands implements CommandFamily {
    private static final String[] HELP = {
        "SLOWLOG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "GET [<count>]",
        "    Return top <count> entries from the slowlog (default: 10, -1 mean all).",
        "    Entries are made of:",
        "    id, timestamp, time in microseconds, arguments array, client IP and port,",
        "    client name",
        "LEN",
        "    Return the length of the slowlog.",
        "RESET",
        "    Reset the slowlog.",
        "HELP",
        "    Prints this help."};

    @Override
    public void register(CommandTable t) {
        t.handler("slowlog|get", this::get);
        t.handler("slowlog|len", ctx -> ctx.reply().integer(ctx.engine().slowLog().size()));
        t.handler("slowlog|reset", ctx -> {
            ctx.engine().slowLog().reset();
            ctx.reply().ok();
        });
        t.handler("slowlog|help", ctx -> {
            ctx.reply().array(HELP.length);
            for (String line : HELP) {
                ctx.reply().simple(line);
            }
        });
    }

    private void get(CommandContext ctx) {
        if (ctx.argc() > 3) {
            throw ctx.subcommandSyntaxError();
        }
        long count = 10;
        if (ctx.argc() == 3) {
            count = ctx.longArg(2, new RedisError("ERR count should be greater than or equal to -1"));
            if (count < -1) {
                throw new RedisError("ERR count should be greater than or equal to -1");
            }
        }
        SlowLog log = ctx.engine().slowLog();
        List<SlowLog.Entry> entries = log.newest(count == -1 ? log.size() : count);
        Reply r = ctx.reply();
        r.array(entries.size());
        for (SlowLog.Entry e : entries) {
            r.array(6);
            r.integer(e.id());
            r.integer(e.timestampSeconds());
            r.integer(e.durationMicros());
            r.bulkArray(e.args());
            r.bulk(e.address());
            r.bulk(e.clientName());
        }
    }
}
