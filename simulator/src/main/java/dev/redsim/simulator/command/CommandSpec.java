package dev.redsim.simulator.command;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One entry of the command table: what COMMAND INFO/DOCS/GETKEYS, arity checks, WATCH and the docs all read.
 * Arity follows Redis: positive means exactly that many arguments (name included), negative means at least.
 * Key positions follow the legacy (first, last, step) triple; last -1 means "to the end".
 */
public final class CommandSpec {
    private final String name;
    private final String container;
    private final int arity;
    private final Set<CommandFlag> flags;
    private final int firstKey;
    private final int lastKey;
    private final int keyStep;
    private final String group;
    private final String since;
    private final String summary;
    private final CommandHandler handler;
    private final Set<String> extraAclCategories;
    private final List<String> tips;
    private final List<String> keySpecFlags;
    private final KeynumSpec keynumSpec;
    private final Map<String, CommandSpec> subcommands = new LinkedHashMap<>();
    private KeyFinder keyFinder;

    /** Finds keys for commands whose key positions move (e.g. LMPOP numkeys key...). */
    @FunctionalInterface
    public interface KeyFinder {
        int[] keyIndexes(byte[][] args);
    }

    private CommandSpec(Builder b) {
        this.name = b.name;
        this.container = b.container;
        this.arity = b.arity;
        this.flags = Collections.unmodifiableSet(b.flags);
        this.firstKey = b.firstKey;
        this.lastKey = b.lastKey;
        this.keyStep = b.keyStep;
        this.group = b.group;
        this.since = b.since;
        this.summary = b.summary;
        this.handler = b.handler;
        this.keyFinder = b.keyFinder;
        this.extraAclCategories = Collections.unmodifiableSet(b.aclCategories);
        this.tips = List.copyOf(b.tips);
        this.keySpecFlags = b.keySpecFlags;
        this.keynumSpec = b.keynumSpec;
    }

    /**
     * A key specification of the "keynum" kind (EVAL, FCALL: a count argument, then that many keys), with
     * the notes Redis attaches to it.
     */
    public record KeynumSpec(String notes, int beginIndex, int keynumIndex, int firstKey, int keyStep) {
    }

    public static Builder command(String name, int arity) {
        return new Builder(name, null, arity);
    }

    /** A subcommand of a container (CONFIG GET, CLIENT LIST, ...). */
    public static Builder subcommand(String container, String name, int arity) {
        return new Builder(name, container, arity);
    }

    /** Lower-case name ("get", or "get" for "config|get"). */
    public String name() {
        return name;
    }

    /** "config|get" for a subcommand, the plain name otherwise: what Redis puts in arity errors. */
    public String fullName() {
        return container == null ? name : container + "|" + name;
    }

    public String container() {
        return container;
    }

    public int arity() {
        return arity;
    }

    public Set<CommandFlag> flags() {
        return flags;
    }

    public boolean has(CommandFlag flag) {
        return flags.contains(flag);
    }

    public int firstKey() {
        return firstKey;
    }

    public int lastKey() {
        return lastKey;
    }

    public int keyStep() {
        return keyStep;
    }

    public String group() {
        return group;
    }

    public String since() {
        return since;
    }

    public String summary() {
        return summary;
    }

    public CommandHandler handler() {
        return handler;
    }

    /**
     * ACL categories Redis lists for this command beyond those implied by its flags and group (for example
     * "dangerous" for KEYS), without the '@'. {@link AclCategories} combines them with the implied ones.
     */
    public Set<String> extraAclCategories() {
        return extraAclCategories;
    }

    /** Command tips as COMMAND INFO prints them ("nondeterministic_output", "request_policy:all_shards"). */
    public List<String> tips() {
        return tips;
    }

    /**
     * The flags of this command's key specification as COMMAND INFO prints them ("RW", "access", "update",
     * ...), when the table entry states them; null to derive them from the command flags.
     */
    public List<String> keySpecFlags() {
        return keySpecFlags;
    }

    /** The keynum key specification, or null for commands described by (first, last, step). */
    public KeynumSpec keynumSpec() {
        return keynumSpec;
    }

    public Map<String, CommandSpec> subcommands() {
        return subcommands;
    }

    public boolean hasSubcommands() {
        return !subcommands.isEmpty();
    }

    public void addSubcommand(CommandSpec sub) {
        subcommands.put(sub.name(), sub);
    }

    public boolean arityAccepts(int argc) {
        return arity > 0 ? argc == arity : argc >= -arity;
    }

    /** Indexes of the key arguments in a concrete call, for WATCH-like bookkeeping and COMMAND GETKEYS. */
    public int[] keyIndexes(byte[][] args) {
        if (keyFinder != null) {
            return keyFinder.keyIndexes(args);
        }
        if (firstKey <= 0) {
            return new int[0];
        }
        int last = lastKey < 0 ? args.length + lastKey : lastKey;
        if (last >= args.length) {
            last = args.length - 1;
        }
        int step = Math.max(1, keyStep);
        int count = last < firstKey ? 0 : (last - firstKey) / step + 1;
        int[] result = new int[count];
        for (int i = 0; i < count; i++) {
            result[i] = firstKey + i * step;
        }
        return result;
    }

    public boolean movableKeys() {
        return keyFinder != null;
    }

    /** Fluent construction of a table entry. */
    public static final class Builder {
        private final String name;
        private final String container;
        private final int arity;
        private final EnumSet<CommandFlag> flags = EnumSet.noneOf(CommandFlag.class);
        private int firstKey;
        private int lastKey;
        private int keyStep;
        private String group = "generic";
        private String since = "1.0.0";
        private String summary = "";
        private CommandHandler handler;
        private KeyFinder keyFinder;
        private final Set<String> aclCategories = new LinkedHashSet<>();
        private final List<String> tips = new ArrayList<>();
        private List<String> keySpecFlags;
        private KeynumSpec keynumSpec;

        private Builder(String name, String container, int arity) {
            this.name = name;
            this.container = container;
            this.arity = arity;
        }

        /** Flags by their Redis names, space separated: "write denyoom fast". */
        public Builder flags(String names) {
            for (String f : names.trim().split("\\s+")) {
                if (!f.isEmpty()) {
                    flags.add(CommandFlag.valueOf(f.toUpperCase()));
                }
            }
            return this;
        }

        public Builder keys(int first, int last, int step) {
            this.firstKey = first;
            this.lastKey = last;
            this.keyStep = step;
            return this;
        }

        public Builder movableKeys(KeyFinder finder) {
            this.keyFinder = finder;
            this.flags.add(CommandFlag.MOVABLEKEYS);
            return this;
        }

        public Builder group(String group) {
            this.group = group;
            return this;
        }

        public Builder since(String since) {
            this.since = since;
            return this;
        }

        public Builder summary(String summary) {
            this.summary = summary;
            return this;
        }

        /** ACL categories beyond the implied ones, space separated, without '@': "keyspace dangerous". */
        public Builder acl(String categories) {
            for (String c : categories.trim().split("\\s+")) {
                if (!c.isEmpty()) {
                    aclCategories.add(c);
                }
            }
            return this;
        }

        /** Command tips, space separated: "nondeterministic_output request_policy:all_shards". */
        public Builder tips(String names) {
            for (String t : names.trim().split("\\s+")) {
                if (!t.isEmpty()) {
                    tips.add(t);
                }
            }
            return this;
        }

        /** Key specification flags as Redis lists them for this command: "RW access update variable_flags". */
        public Builder keySpecFlags(String names) {
            this.keySpecFlags = List.of(names.trim().split("\\s+"));
            return this;
        }

        /** A keynum key specification (see {@link KeynumSpec}). */
        public Builder keynumSpec(String notes, int beginIndex, int keynumIndex, int firstKey, int keyStep) {
            this.keynumSpec = new KeynumSpec(notes, beginIndex, keynumIndex, firstKey, keyStep);
            return this;
        }

        public Builder handler(CommandHandler handler) {
            this.handler = handler;
            return this;
        }

        public CommandSpec build() {
            return new CommandSpec(this);
        }
    }
}
