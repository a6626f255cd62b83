package dev.redsim.simulator.acl;

import dev.redsim.simulator.command.CommandDescription;
import dev.redsim.simulator.command.CommandFlag;

import java.util.ArrayList;
import java.util.List;

/**
 * A command (or subcommand) as the ACL knows it: its bit in the users' command bitmaps (Redis's command id),
 * its categories as bits, its subcommands, and how its arguments name Pub/Sub channels.
 */
final class AclCommand {
    /** Channels: none; the first argument (PUBLISH, SPUBLISH); every argument (SUBSCRIBE, SSUBSCRIBE). */
    static final int NO_CHANNELS = 0;
    static final int PUBLISHES = 1;
    static final int SUBSCRIBES = 2;
    /** Every argument is a pattern, compared literally with the user's channel rules (PSUBSCRIBE). */
    static final int SUBSCRIBES_PATTERNS = 3;

    final int id;
    final CommandDescription description;
    final String fullName;
    final int categories;
    final boolean noAuth;
    final boolean hasKeys;
    final int channels;
    final AclCommand parent;
    private List<AclCommand> subcommands = new ArrayList<>();

    AclCommand(int id, CommandDescription description, AclCommand parent) {
        this.id = id;
        this.description = description;
        this.fullName = description.fullName();
        this.categories = AclCategories.mask(description.aclCategories());
        this.noAuth = description.has(CommandFlag.NO_AUTH);
        this.hasKeys = description.hasKeys();
        this.parent = parent;
        this.channels = switch (fullName) {
            case "publish", "spublish" -> PUBLISHES;
            case "subscribe", "ssubscribe" -> SUBSCRIBES;
            case "psubscribe" -> SUBSCRIBES_PATTERNS;
            default -> NO_CHANNELS;
        };
    }

    void addSubcommand(AclCommand sub) {
        subcommands.add(sub);
    }

    /** Ends the index's construction: from now on the entry is shared by every ACL of the JVM, so read only. */
    void freeze() {
        subcommands = List.copyOf(subcommands);
    }

    /** The subcommands in name order (empty for a plain command). */
    List<AclCommand> subcommands() {
        return subcommands;
    }

    boolean in(int category) {
        return (categories & category) != 0;
    }
}
