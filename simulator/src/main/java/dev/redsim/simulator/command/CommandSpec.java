package dev.redsim.simulator.command;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One implemented entry of the command table: what Redis reports about the command (its
 * {@link CommandDescription}, from the table resource) bound to the simulator's handler. A container (CONFIG,
 * CLIENT, ...) has no handler of its own and lists only the subcommands the simulator implements.
 */
public final class CommandSpec {
    private final CommandDescription description;
    private CommandHandler handler;
    private final KeyProcedure keyProcedure;
    private final Map<String, CommandSpec> subcommands = new TreeMap<>();

    CommandSpec(CommandDescription description, CommandHandler handler, KeyProcedure keyProcedure) {
        this.description = description;
        this.handler = handler;
        this.keyProcedure = keyProcedure;
    }

    public CommandDescription description() {
        return description;
    }

    /** Lower-case name ("get", or "get" for "config|get"). */
    public String name() {
        return description.name();
    }

    /** "config|get" for a subcommand, the plain name otherwise: what Redis puts in arity errors. */
    public String fullName() {
        return description.fullName();
    }

    public String container() {
        return description.container();
    }

    public int arity() {
        return description.arity();
    }

    public Set<CommandFlag> flags() {
        return description.flags();
    }

    public boolean has(CommandFlag flag) {
        return description.has(flag);
    }

    public String group() {
        return description.docs().group();
    }

    public String since() {
        return description.docs().since();
    }

    public String summary() {
        return description.docs().summary();
    }

    public CommandHandler handler() {
        return handler;
    }

    void bindHandler(CommandHandler containerHandler) {
        if (handler != null) {
            throw new IllegalStateException("handler bound twice: " + fullName());
        }
        handler = containerHandler;
    }

    /** The implemented subcommands by lower-case name, in name order. */
    public Map<String, CommandSpec> subcommands() {
        return Collections.unmodifiableMap(subcommands);
    }

    public boolean hasSubcommands() {
        return !subcommands.isEmpty();
    }

    void addSubcommand(CommandSpec sub) {
        if (subcommands.putIfAbsent(sub.name(), sub) != null) {
            throw new IllegalStateException("handler bound twice: " + sub.fullName());
        }
    }

    public boolean arityAccepts(int argc) {
        return description().arityAccepts(argc);
    }

    /**
     * The keys of a concrete call (the command name at index 0) with their access flags, from the key specs or,
     * for the few commands that have one, from the command's own key procedure; null when the arguments do not
     * fit (a key count that is not a number or exceeds the arguments).
     */
    public List<KeyRef> keys(byte[][] args) {
        return keyProcedure != null ? keyProcedure.keys(args) : KeySearch.find(description.keySpecs(), args);
    }

    /** Argument indexes of the keys of a call; none when the arguments do not fit. */
    public int[] keyIndexes(byte[][] args) {
        List<KeyRef> keys = keys(args);
        return keys == null ? new int[0] : keys.stream().mapToInt(KeyRef::index).toArray();
    }

    /**
     * The argument indexes a cluster node hashes to find a call's slot: every key spec that fits the call, skipping
     * those that do not (getNodeByQuery's partial search), shard channels included.
     */
    public int[] clusterKeyIndexes(byte[][] args) {
        List<KeyRef> keys = keyProcedure != null ? keyProcedure.keys(args)
                : KeySearch.find(description.keySpecs(), args, true);
        return keys == null ? new int[0] : keys.stream().mapToInt(KeyRef::index).toArray();
    }

    /** Whether calls of this command name keys (what COMMAND GETKEYS asks first); shard channels are no keys. */
    public boolean hasKeyArguments() {
        return keyProcedure != null || description.hasKeys();
    }

    public boolean movableKeys() {
        return has(CommandFlag.MOVABLEKEYS);
    }
}
