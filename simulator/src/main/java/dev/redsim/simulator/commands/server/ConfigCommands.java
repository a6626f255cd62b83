package dev.redsim.simulator.commands.server;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.commands.common.HelpText;
import dev.redsim.simulator.engine.Config;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.protocol.Reply;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** CONFIG GET / SET / RESETSTAT / REWRITE / HELP (config.c), over the engine's {@link Config}. */
public final class ConfigCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        t.handler("config|get", this::get);
        t.handler("config|set", this::set);
        t.handler("config|resetstat", this::resetStat);
        t.handler("config|rewrite", this::rewrite);
        t.handler("config|help", this::help);
    }

    /** Exact names answer under the name as typed; patterns under the matching names. Each name once. */
    private void get(CommandContext ctx) {
        Config config = ctx.engine().config();
        Map<String, String> found = new LinkedHashMap<>();
        Set<String> seen = new HashSet<>();
        for (int i = 2; i < ctx.argc(); i++) {
            String pattern = ctx.text(i);
            if (!isGlob(pattern)) {
                if (config.known(pattern) && seen.add(pattern.toLowerCase())) {
                    found.put(pattern, config.get(pattern));
                }
                continue;
            }
            for (String[] pair : config.matching(pattern)) {
                if (seen.add(pair[0])) {
                    found.put(pair[0], pair[1]);
                }
            }
        }
        Reply r = ctx.reply();
        r.map(found.size());
        for (Map.Entry<String, String> e : found.entrySet()) {
            r.bulk(e.getKey());
            r.bulk(e.getValue());
        }
    }

    private static boolean isGlob(String pattern) {
        return pattern.indexOf('*') >= 0 || pattern.indexOf('?') >= 0 || pattern.indexOf('[') >= 0;
    }

    /**
     * All pairs are checked before any is applied, so a CONFIG SET either changes everything or nothing:
     * first that each parameter may be set at all and appears once, then each value.
     */
    private void set(CommandContext ctx) {
        if ((ctx.argc() - 2) % 2 != 0) {
            throw RedisError.SYNTAX;
        }
        Config config = ctx.engine().config();
        Set<String> names = new HashSet<>();
        for (int i = 2; i < ctx.argc(); i += 2) {
            String name = ctx.text(i);
            if (!config.known(name)) {
                throw new RedisError("ERR Unknown option or number of arguments for CONFIG SET - '" + name + "'");
            }
            attempt(name, () -> config.checkSettable(name));
            if (!names.add(name.toLowerCase())) {
                throw failed(name, "duplicate parameter");
            }
        }
        List<String[]> validated = new ArrayList<>();
        for (int i = 2; i < ctx.argc(); i += 2) {
            String name = ctx.text(i);
            String value = ctx.text(i + 1);
            attempt(name, () -> validated.add(new String[] {name, config.validated(name, value)}));
        }
        // As Redis: when applying a value fails (a port that cannot be listened on), every parameter of the call
        // gets its old value back, and the error names the one that failed
        List<String[]> previous = new ArrayList<>();
        for (String[] pair : validated) {
            previous.add(new String[] {pair[0], config.get(pair[0])});
        }
        for (int i = 0; i < validated.size(); i++) {
            try {
                config.apply(validated.get(i)[0], validated.get(i)[1]);
            } catch (RedisError e) {
                for (int j = i; j >= 0; j--) {
                    config.apply(previous.get(j)[0], previous.get(j)[1]);
                }
                throw failed(validated.get(i)[0], e.getMessage());
            }
        }
        ctx.reply().ok();
    }

    private static void attempt(String name, Runnable step) {
        try {
            step.run();
        } catch (RedisError e) {
            throw failed(name, e.getMessage());
        }
    }

    private static RedisError failed(String name, String reason) {
        return new RedisError("ERR CONFIG SET failed (possibly related to argument '" + name + "') - " + reason);
    }

    private void resetStat(CommandContext ctx) {
        ctx.engine().stats().reset();
        ctx.engine().latency().resetHistograms();
        for (Database db : ctx.engine().databases()) {
            db.resetStats();
        }
        ctx.reply().ok();
    }

    /** The simulator is configured in code, never from a file: Redis's answer when it has no config file. */
    private void rewrite(CommandContext ctx) {
        throw new RedisError("ERR The server is running without a config file");
    }

    private void help(CommandContext ctx) {
        HelpText.reply(ctx.reply(), "CONFIG",
                "GET <pattern> [<pattern> ...]", "Parameters matching the glob-like patterns, with their values.",
                "SET <directive> <value> [<directive> <value> ...]",
                "Change parameters; if one cannot be changed, none is.",
                "RESETSTAT", "Clear the statistics that INFO reports.",
                "REWRITE", "Write the configuration to its file (there is none here).",
                "HELP", "Print this text.");
    }
}
