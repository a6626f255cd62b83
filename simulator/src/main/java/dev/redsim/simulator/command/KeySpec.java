package dev.redsim.simulator.command;

import java.util.List;

/**
 * One key specification of a command, as Redis 7.0 reports it in COMMAND INFO: where the search for keys
 * begins (an argument index or a keyword), how the keys are found from there (a range or a count argument),
 * the access flags of the keys it finds (RO/RW/OW/RM, access/update/insert/delete, not_key, incomplete,
 * variable_flags) and Redis's notes. {@link KeySearch} applies it to a call.
 */
public record KeySpec(String notes, List<String> flags, BeginSearch beginSearch, FindKeys findKeys) {

    public boolean has(String flag) {
        return flags.contains(flag);
    }

    /** Where the search starts. */
    public sealed interface BeginSearch {
    }

    /** The first key is the argument at this index (the command name is index 0). */
    public record AtIndex(int index) implements BeginSearch {
    }

    /**
     * The keys follow this keyword, searched for from argument {@code startFrom} on (a negative value counts
     * from the end and searches backwards).
     */
    public record AfterKeyword(String keyword, int startFrom) implements BeginSearch {
    }

    /** Redis cannot say where (SORT's BY/GET/STORE); only a command's own key procedure finds these keys. */
    public record UnknownStart() implements BeginSearch {
    }

    /** How many keys, counted from where the search began. */
    public sealed interface FindKeys {
    }

    /**
     * Keys up to {@code lastKey} (relative to the start; negative counts from the end of the arguments), every
     * {@code keyStep}-th argument; with a negative last key, {@code limit} > 0 keeps only 1/limit of what is left
     * (XREAD's STREAMS k1 k2 id1 id2).
     */
    public record Range(int lastKey, int keyStep, int limit) implements FindKeys {
    }

    /**
     * The argument at {@code keynumIndex} (relative to the start) says how many keys there are; they begin at
     * {@code firstKey} (relative to the start), every {@code keyStep}-th argument.
     */
    public record Keynum(int keynumIndex, int firstKey, int keyStep) implements FindKeys {
    }

    /** Redis cannot say how many. */
    public record UnknownCount() implements FindKeys {
    }
}
