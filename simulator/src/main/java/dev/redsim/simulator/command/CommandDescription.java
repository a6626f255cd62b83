package dev.redsim.simulator.command;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything Redis reports about one command or subcommand (COMMAND INFO and COMMAND DOCS), read from the
 * command table resource: nothing here is written by hand. {@code flagNames} and {@code aclCategories} keep
 * Redis's order, which is the order COMMAND INFO prints them in.
 *
 * @param name        lower-case name: "get", or "get" for the subcommand "config|get"
 * @param container   "config" for "config|get", null for a top-level command
 * @param arity       Redis's arity: exactly that many arguments (name included) when positive, at least -arity when negative
 * @param subcommands by lower-case subcommand name ("get"), in name order; empty for plain commands
 */
public record CommandDescription(String name, String container, int arity, Set<CommandFlag> flags,
                                 List<String> flagNames, int firstKey, int lastKey, int keyStep,
                                 List<String> aclCategories, List<String> tips, List<KeySpec> keySpecs,
                                 CatalogDocs catalogDocs, Map<String, CommandDescription> subcommands) {

    /** What COMMAND DOCS reports (read from the resource the first time any command's docs are asked for). */
    public CommandDocs docs() {
        return catalogDocs.of(fullName());
    }

    /** "config|get" for a subcommand, the plain name otherwise: what Redis puts in its replies and errors. */
    public String fullName() {
        return container == null ? name : container + "|" + name;
    }

    public boolean has(CommandFlag flag) {
        return flags.contains(flag);
    }

    /** Whether a call of {@code argc} arguments (the name included) has the number Redis's arity allows. */
    public boolean arityAccepts(int argc) {
        return arity > 0 ? argc == arity : argc >= -arity;
    }

    /** Whether some key spec names real keys (shard channels are marked not_key), as COMMAND GETKEYS asks. */
    public boolean hasKeys() {
        return keySpecs.stream().anyMatch(spec -> !spec.has("not_key"));
    }
}
