package dev.redsim.simulator.acl;

import dev.redsim.simulator.command.CommandCatalog;
import dev.redsim.simulator.command.CommandDescription;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every command of the imitated Redis, implemented by the simulator or not (ACL rules may name any of them, as
 * Redis's rules are checked against its original command table), numbered for the users' command bitmaps, with
 * the commands of each category listed once so that a category rule costs what it covers. Immutable once made:
 * every Acl of the JVM on the same catalog shares one ({@link CommandCatalog#derived}).
 */
final class CommandIndex {
    /** Bits of a command bitmap, as Redis's USER_COMMAND_BITS_COUNT; the last one is never a command's. */
    static final int BITS = 1024;
    /** Set only by +@all (allcommands): the user may also run commands that do not exist yet (modules). */
    static final int FUTURE_COMMANDS = BITS - 1;

    private final List<AclCommand> topLevel = new ArrayList<>();
    private final Map<String, AclCommand> byName = new HashMap<>();
    private final IdentityHashMap<CommandDescription, AclCommand> byDescription = new IdentityHashMap<>();
    /** Per category (by position), every command and subcommand in it. */
    private final List<List<AclCommand>> byCategory = new ArrayList<>();

    CommandIndex(CommandCatalog catalog) {
        int next = 0;
        for (CommandDescription description : catalog.all()) {
            AclCommand command = new AclCommand(next++, description, null);
            add(command);
            topLevel.add(command);
            for (CommandDescription subDescription : description.subcommands().values()) {
                AclCommand sub = new AclCommand(next++, subDescription, command);
                add(sub);
                command.addSubcommand(sub);
            }
        }
        for (AclCommand command : topLevel) {
            command.freeze();
        }
        if (next >= FUTURE_COMMANDS) {
            throw new IllegalStateException("more commands than the ACL bitmaps hold: " + next);
        }
        for (int i = 0; i < AclCategories.NAMES.size(); i++) {
            List<AclCommand> members = new ArrayList<>();
            for (AclCommand command : byDescription.values()) {
                if (command.in(1 << i)) {
                    members.add(command);
                }
            }
            members.sort((a, b) -> Integer.compare(a.id, b.id));
            byCategory.add(Collections.unmodifiableList(members));
        }
    }

    private void add(AclCommand command) {
        byName.put(command.fullName, command);
        byDescription.put(command.description, command);
    }

    /**
     * Redis's ACLLookupCommand: "get" or "config|get" (one level of subcommands, any case), null when there is no
     * such command. A container named alone is the container itself.
     */
    AclCommand lookup(String name) {
        return byName.get(Ascii.lower(name));
    }

    /** The entry of a command description of the catalog. */
    AclCommand of(CommandDescription description) {
        return byDescription.get(description);
    }

    /** The top-level commands in name order, each followed (in {@link AclCommand#subcommands()}) by its own. */
    List<AclCommand> topLevel() {
        return Collections.unmodifiableList(topLevel);
    }

    /** Every command and subcommand in the category at this position of {@link AclCategories#NAMES}. */
    List<AclCommand> inCategory(int position) {
        return byCategory.get(position);
    }
}
