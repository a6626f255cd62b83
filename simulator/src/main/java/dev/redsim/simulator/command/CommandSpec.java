package dev.redsim.simulator.command;

import dev.redsim.simulator.engine.Stats;

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
    /** Volatile: a lazily bound family may bind it on the script thread while the engine thread reads it. */
    private volatile CommandHandler handler;
    private volatile KeyProcedure keyProcedure;
    /**
     * The family that binds this entry on first use, or null when it is bound already (or never: a bare container).
     * Set while the table is declared, before any other thread sees it.
     */
    private FamilyBinding family;
    private CommandTable table;
    private final Map<String, CommandSpec> subcommands = new TreeMap<>();
    /** The key specs as a plain index range when they are one (see {@link KeyRange}), else null. */
    private final KeyRange keyRange;
    /**
     * The description's flags as bits by ordinal, and its full name, made once: the command path asks for both many
     * times per call (the set's contains and the name's concatenation for subcommands were per-call costs).
     */
    private final long flagBits;
    private final String fullName;
    /**
     * This command's INFO commandstats counters and the Stats they belong to, fetched on the first call: counting
     * then costs no lookup by name (a HashMap lookup per call showed in profiles). The owner is checked so that a
     * spec could never count into another server's stats.
     */
    private Stats countersOwner;
    private long[] counters;

    CommandSpec(CommandDescription description, CommandHandler handler, KeyProcedure keyProcedure) {
        this(description, handler, keyProcedure, null, null);
    }

    /** An entry declared by {@code family} of {@code table}, whose handler comes when the family is bound. */
    CommandSpec(CommandDescription description, CommandHandler handler, KeyProcedure keyProcedure,
            FamilyBinding family, CommandTable table) {
        this.description = description;
        this.handler = handler;
        this.keyProcedure = keyProcedure;
        this.family = family;
        this.table = table;
        this.keyRange = KeyRange.of(description.keySpecs());
        long bits = 0;
        for (CommandFlag flag : description.flags()) {
            bits |= 1L << flag.ordinal();
        }
        this.flagBits = bits;
        this.fullName = description.fullName();
    }

    /**
     * A table's own entry for a layout's entry: what is worked out from the description alone (the key range, the
     * flag bits, the full name) comes from the layout, made once per JVM (decision 0047). {@code family} binds it on
     * first use; null for a container whose own call nobody answers.
     */
    CommandSpec(TableLayout.Entry entry, FamilyBinding family, CommandTable table) {
        this.description = entry.description();
        this.family = family;
        this.table = family == null ? null : table;
        this.keyRange = entry.keyRange();
        this.flagBits = entry.flagBits();
        this.fullName = entry.fullName();
    }

    /** This command's counters in {@code stats} (see Stats.commandCounters), looked up by name once. */
    public long[] counters(Stats stats) {
        if (countersOwner != stats) {
            counters = stats.commandCounters(fullName);
            countersOwner = stats;
        }
        return counters;
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
        return fullName;
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
        return (flagBits & (1L << flag.ordinal())) != 0;
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

    /** The handler, binding its family first when that has not happened yet (decision 0026). */
    public CommandHandler handler() {
        CommandHandler bound = handler;
        if (bound == null && family != null) {
            table.bind(family);
            bound = handler;
        }
        return bound;
    }

    /** The handler as it is now, without binding anything. */
    CommandHandler handlerIfBound() {
        return handler;
    }

    private KeyProcedure keyProcedure() {
        if (family != null && !family.bound()) {
            table.bind(family); // the family's registration is what supplies a key procedure
        }
        return keyProcedure;
    }

    /** The family that binds this entry lazily, or null. */
    FamilyBinding family() {
        return family;
    }

    /** Declares that {@code declaring} binds this entry's handler (a container's own handler) on first use. */
    void declaredBy(FamilyBinding declaring, CommandTable owner) {
        if (family != null || handler != null) {
            throw new IllegalStateException("handler declared twice: " + fullName());
        }
        family = declaring;
        table = owner;
    }

    void bindHandler(CommandHandler containerHandler) {
        if (handler != null) {
            throw new IllegalStateException("handler bound twice: " + fullName());
        }
        handler = containerHandler;
    }

    /** The handler (and key procedure) of an entry declared lazily, from its family's registration. */
    void bindDeclared(CommandHandler declaredHandler, KeyProcedure declaredKeyProcedure) {
        if (handler != null) {
            throw new IllegalStateException("handler bound twice: " + fullName());
        }
        keyProcedure = declaredKeyProcedure;
        handler = declaredHandler; // last: a reader that sees the handler sees the key procedure
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
        KeyProcedure procedure = keyProcedure();
        return procedure != null ? procedure.keys(args) : KeySearch.find(description.keySpecs(), args);
    }

    /**
     * The call's keys as an index range, when the command's one key spec is one and no key procedure of its own
     * overrides it; null otherwise (then {@link #keys} finds them). Same indexes as keys(args) gives.
     */
    KeyRange keyRange() {
        return keyProcedure() == null ? keyRange : null;
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
        KeyProcedure procedure = keyProcedure();
        List<KeyRef> keys = procedure != null ? procedure.keys(args)
                : KeySearch.find(description.keySpecs(), args, true);
        return keys == null ? new int[0] : keys.stream().mapToInt(KeyRef::index).toArray();
    }

    /** Whether calls of this command name keys (what COMMAND GETKEYS asks first); shard channels are no keys. */
    public boolean hasKeyArguments() {
        return keyProcedure() != null || description.hasKeys();
    }

    public boolean movableKeys() {
        return has(CommandFlag.MOVABLEKEYS);
    }
}
