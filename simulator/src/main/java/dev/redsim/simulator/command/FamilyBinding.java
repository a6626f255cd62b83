package dev.redsim.simulator.command;

import java.util.List;
import java.util.function.Supplier;

/**
 * A command family declared to a table by the names it serves, whose handlers are bound the first time one of
 * them is needed (decision 0026). Binding a family runs its registration, which links a class per handler lambda:
 * for the several hundred handlers of all families that was the largest part of a first start in a fresh JVM,
 * while a test suite's first command needs one family, often none but the connection commands.
 */
final class FamilyBinding {
    private final String name;
    private final List<String> fullNames;
    private final Supplier<CommandFamily> family;
    /** Written under the table's lock; read without it by {@link #bound()}. */
    private volatile boolean bound;

    FamilyBinding(String name, List<String> fullNames, Supplier<CommandFamily> family) {
        this.name = name;
        this.fullNames = List.copyOf(fullNames); // no copy when the list is immutable already (CommandFamilies' are)
        this.family = family;
    }

    String name() {
        return name;
    }

    /** "get", "config|get", or "command" for a container's own handler: what the family declares it binds. */
    List<String> fullNames() {
        return fullNames;
    }

    CommandFamily create() {
        return family.get();
    }

    boolean bound() {
        return bound;
    }

    void markBound() {
        bound = true;
    }
}
