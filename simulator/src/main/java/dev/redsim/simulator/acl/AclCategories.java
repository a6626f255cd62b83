package dev.redsim.simulator.acl;

import java.util.List;

/**
 * Redis 7.0's ACL command categories, in its order (the order ACL CAT lists them and the order in which
 * ACL LIST tries them when it describes a user's commands), each with one bit.
 */
public final class AclCategories {
    /** The names, each category's bit being 1 << its position here. */
    public static final List<String> NAMES = List.of("keyspace", "read", "write", "set", "sortedset", "list",
            "hash", "string", "bitmap", "hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow",
            "blocking", "dangerous", "connection", "transaction", "scripting");

    private AclCategories() {
    }

    /** The bit of a category name (any case), 0 when there is no such category. */
    public static int flag(String name) {
        for (int i = 0; i < NAMES.size(); i++) {
            if (NAMES.get(i).equalsIgnoreCase(name)) {
                return 1 << i;
            }
        }
        return 0;
    }

    /** The bits of a command's categories as the command table lists them ("@read", "@fast"). */
    static int mask(List<String> categories) {
        int mask = 0;
        for (String category : categories) {
            mask |= flag(category.startsWith("@") ? category.substring(1) : category);
        }
        return mask;
    }
}
