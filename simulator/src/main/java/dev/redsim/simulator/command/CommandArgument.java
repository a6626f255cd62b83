package dev.redsim.simulator.command;

import java.util.List;

/**
 * One argument of a command's documented syntax, as COMMAND DOCS reports it (what redis-cli turns into its
 * hints): its name and type (key, string, integer, double, pattern, unix-time, pure-token, oneof, block), the key
 * spec it belongs to (-1 for none), the token that introduces it, since / deprecated since, its flags (optional,
 * multiple, multiple_token) and, for oneof and block, the arguments inside. Absent texts are null.
 */
public record CommandArgument(String name, String type, int keySpecIndex, String token, String summary, String since,
                              String deprecatedSince, List<String> flags, List<CommandArgument> arguments) {

    public boolean has(String flag) {
        return flags.contains(flag);
    }
}
