package dev.redsim.simulator.acl;

import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.command.KeyRef;
import dev.redsim.simulator.command.KeySearch;

import java.util.ArrayList;
import java.util.List;

/**
 * The keys of one call with the access each needs, found once however many selectors look at them (Redis's
 * aclKeyResultCache): from the simulator's command (key specs, or its own key procedure) when it has one, else
 * from the key specs of Redis's table. Keys of not_key specs (shard channels) are no keys.
 */
final class CallKeys {
    /** A key's argument index and the access it needs: READ for "access", WRITE for "insert", "update", "delete". */
    record Key(int index, int access) {
    }

    private final AclCommand command;
    private final CommandSpec spec;
    private final byte[][] args;
    private List<Key> keys;

    CallKeys(AclCommand command, CommandSpec spec, byte[][] args) {
        this.command = command;
        this.spec = spec;
        this.args = args;
    }

    /** Redis's doesCommandHaveKeys: some key spec names real keys, or the command finds its keys itself. */
    boolean hasKeys() {
        return spec != null ? spec.hasKeyArguments() : command.hasKeys;
    }

    List<Key> keys() {
        if (keys == null) {
            List<KeyRef> found = spec != null ? spec.keys(args) : KeySearch.find(command.description.keySpecs(), args);
            keys = new ArrayList<>(found == null ? 0 : found.size());
            if (found != null) {
                for (KeyRef ref : found) {
                    if (!ref.flags().contains("not_key")) {
                        keys.add(new Key(ref.index(), access(ref.flags())));
                    }
                }
            }
        }
        return keys;
    }

    private static int access(List<String> flags) {
        int access = 0;
        for (String flag : flags) {
            switch (flag) {
                case "access" -> access |= Selector.READ;
                case "insert", "update", "delete" -> access |= Selector.WRITE;
                default -> { }
            }
        }
        return access;
    }
}
