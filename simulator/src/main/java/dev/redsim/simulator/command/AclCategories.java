package dev.redsim.simulator.command;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ACL categories of a command, as COMMAND INFO lists them: those its flags imply (write, read, admin and
 * dangerous, pubsub, fast or slow, blocking), the family its group implies (string, list, keyspace for generic
 * commands, ...), and any extra ones its table entry names. Printed in the order of Redis's category table.
 */
public final class AclCategories {
    /** Redis's category table order, which is also the order COMMAND INFO prints them in. */
    public static final List<String> ALL = List.of("keyspace", "read", "write", "set", "sortedset", "list", "hash",
            "string", "bitmap", "hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow", "blocking",
            "dangerous", "connection", "transaction", "scripting");

    private static final Map<String, String> BY_GROUP = Map.ofEntries(
            Map.entry("generic", "keyspace"), Map.entry("string", "string"), Map.entry("list", "list"),
            Map.entry("hash", "hash"), Map.entry("set", "set"), Map.entry("sorted-set", "sortedset"),
            Map.entry("sorted_set", "sortedset"), Map.entry("bitmap", "bitmap"),
            Map.entry("hyperloglog", "hyperloglog"), Map.entry("geo", "geo"), Map.entry("stream", "stream"),
            // No entry for pubsub: @pubsub follows the pubsub flag, as in Redis (PUBSUB HELP has neither).
            Map.entry("connection", "connection"),
            Map.entry("transactions", "transaction"), Map.entry("scripting", "scripting"));

    /** Categories that say which family a command belongs to; naming one replaces the group's default. */
    private static final Set<String> FAMILIES = Set.of("keyspace", "set", "sortedset", "list", "hash", "string",
            "bitmap", "hyperloglog", "geo", "stream", "pubsub", "connection", "transaction", "scripting");

    private AclCategories() {
    }

    /** The categories of a command, without '@', in Redis's order. */
    public static List<String> of(CommandSpec spec) {
        Set<String> extra = spec.extraAclCategories();
        Set<String> result = new HashSet<>(extra);
        boolean namesFamily = extra.stream().anyMatch(FAMILIES::contains);
        // Containers (CONFIG, CLIENT, ...) carry no family of their own in Redis; their subcommands do.
        String family = spec.hasSubcommands() ? null : BY_GROUP.get(spec.group());
        if (family != null && !namesFamily) {
            result.add(family);
        }
        if (spec.has(CommandFlag.WRITE)) {
            result.add("write");
        }
        if (spec.has(CommandFlag.READONLY) && !result.contains("scripting")) {
            result.add("read");
        }
        if (spec.has(CommandFlag.ADMIN)) {
            result.add("admin");
            result.add("dangerous");
        }
        if (spec.has(CommandFlag.PUBSUB)) {
            result.add("pubsub");
        }
        if (spec.has(CommandFlag.FAST)) {
            result.add("fast");
        }
        if (spec.has(CommandFlag.BLOCKING)) {
            result.add("blocking");
        }
        if (!result.contains("fast")) {
            result.add("slow");
        }
        List<String> ordered = new ArrayList<>(result.size());
        for (String category : ALL) {
            if (result.contains(category)) {
                ordered.add(category);
            }
        }
        return ordered;
    }
}
