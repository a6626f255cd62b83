package dev.redsim.simulator.commands.cluster;

import dev.redsim.simulator.cluster.ClusterNodeInfo;
import dev.redsim.simulator.cluster.ClusterState;
import dev.redsim.simulator.cluster.ClusterTopology;
import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.util.KeyHashSlot;
import dev.redsim.simulator.keyspace.Numbers;

/**
 * The CLUSTER subcommands that change who serves which slot, as a Redis 7.0 master runs them (cluster.c):
 * ADDSLOTS / DELSLOTS and their RANGE forms, FLUSHSLOTS, SETSLOT IMPORTING / MIGRATING / STABLE / NODE, BUMPEPOCH and
 * SET-CONFIG-EPOCH. The slot owners and epochs are the cluster's one topology, so a change made on one node is seen by
 * every node at once, where Redis's gossip would spread it in milliseconds; the migrating and importing states are the
 * node's own, as in Redis (decision 0016).
 */
final class ClusterSlotCommands {
    private static final RedisError INVALID_SLOT = new RedisError("ERR Invalid or out of range slot");

    private final ClusterState state;

    ClusterSlotCommands(ClusterState state) {
        this.state = state;
    }

    void register(CommandTable t, java.util.function.UnaryOperator<dev.redsim.simulator.command.CommandHandler> enabled) {
        t.handler("cluster|addslots", enabled.apply(ctx -> changeSlots(ctx, false)));
        t.handler("cluster|delslots", enabled.apply(ctx -> changeSlots(ctx, true)));
        t.handler("cluster|addslotsrange", enabled.apply(ctx -> changeSlotRanges(ctx, false)));
        t.handler("cluster|delslotsrange", enabled.apply(ctx -> changeSlotRanges(ctx, true)));
        t.handler("cluster|flushslots", enabled.apply(this::flushSlots));
        t.handler("cluster|setslot", enabled.apply(this::setSlot));
        t.handler("cluster|bumpepoch", enabled.apply(this::bumpEpoch));
        t.handler("cluster|set-config-epoch", enabled.apply(this::setConfigEpoch));
    }

    /** getSlotOrReply. */
    private static int slot(CommandContext ctx, int i) {
        Long slot = Numbers.parseLongStrict(ctx.arg(i));
        if (slot == null || slot < 0 || slot >= KeyHashSlot.SLOTS) {
            throw INVALID_SLOT;
        }
        return slot.intValue();
    }

    /** ADDSLOTS / DELSLOTS: every argument parsed first, then every slot checked, then all of them changed. */
    private void changeSlots(CommandContext ctx, boolean delete) {
        for (int i = 2; i < ctx.argc(); i++) {
            slot(ctx, i);
        }
        boolean[] named = new boolean[KeyHashSlot.SLOTS];
        for (int i = 2; i < ctx.argc(); i++) {
            int slot = slot(ctx, i);
            checkAssignment(named, delete, slot, slot);
        }
        update(named, delete);
        ctx.reply().ok();
    }

    /** ADDSLOTSRANGE / DELSLOTSRANGE start end [start end ...]: each pair parsed and checked in turn. */
    private void changeSlotRanges(CommandContext ctx, boolean delete) {
        if (ctx.argc() % 2 == 1) {
            throw RedisError.wrongArity(delete ? "cluster|delslotsrange" : "cluster|addslotsrange");
        }
        boolean[] named = new boolean[KeyHashSlot.SLOTS];
        for (int i = 2; i < ctx.argc(); i += 2) {
            int start = slot(ctx, i);
            int end = slot(ctx, i + 1);
            if (start > end) {
                throw new RedisError("ERR start slot number " + start + " is greater than end slot number " + end);
            }
            checkAssignment(named, delete, start, end);
        }
        update(named, delete);
        ctx.reply().ok();
    }

    /** checkSlotAssignmentsOrReply. */
    private void checkAssignment(boolean[] named, boolean delete, int start, int end) {
        ClusterTopology topology = state.topology();
        for (int slot = start; slot <= end; slot++) {
            if (delete && topology.owner(slot) == null) {
                throw new RedisError("ERR Slot " + slot + " is already unassigned");
            } else if (!delete && topology.owner(slot) != null) {
                throw new RedisError("ERR Slot " + slot + " is already busy");
            }
            if (named[slot]) {
                throw new RedisError("ERR Slot " + slot + " specified multiple times");
            }
            named[slot] = true;
        }
    }

    /** clusterUpdateSlots: a slot this node was importing is its own (or nobody's) now, so the import is over. */
    private void update(boolean[] named, boolean delete) {
        ClusterTopology topology = state.topology();
        ClusterNodeInfo myself = state.myself();
        // clusterDelSlot: a slot this node's shard served takes its shard channels' subscribers with it
        boolean[] left = new boolean[KeyHashSlot.SLOTS];
        boolean anyLeft = false;
        for (int slot = 0; slot < KeyHashSlot.SLOTS; slot++) {
            ClusterNodeInfo owner = topology.owner(slot);
            if (named[slot] && delete && owner != null && (owner == myself || owner == myself.master())) {
                left[slot] = true;
                anyLeft = true;
            }
        }
        if (anyLeft) {
            state.leftSlots(slot -> left[slot]);
        }
        for (int slot = 0; slot < KeyHashSlot.SLOTS; slot++) {
            if (named[slot]) {
                state.importing(slot, null);
                if (delete) {
                    topology.unassign(slot);
                } else {
                    topology.assign(slot, state.myself());
                }
            }
        }
    }

    /** FLUSHSLOTS: this node gives up every slot it serves, only while it holds no key (Redis checks db 0). */
    private void flushSlots(CommandContext ctx) {
        if (ctx.db().size() != 0) {
            throw new RedisError("ERR DB must be empty to perform CLUSTER FLUSHSLOTS.");
        }
        boolean[] named = new boolean[KeyHashSlot.SLOTS];
        for (ClusterNodeInfo.SlotRange range : state.myself().slots()) {
            for (int slot = range.first(); slot <= range.last(); slot++) {
                named[slot] = true;
            }
        }
        update(named, true);
        ctx.reply().ok();
    }

    private void setSlot(CommandContext ctx) {
        int slot = slot(ctx, 2);
        ClusterTopology topology = state.topology();
        ClusterNodeInfo myself = state.myself();
        if (ctx.is(3, "migrating") && ctx.argc() == 5) {
            if (topology.owner(slot) != myself) {
                throw new RedisError("ERR I'm not the owner of hash slot " + slot);
            }
            state.migrating(slot, knownNode(ctx.text(4), "ERR I don't know about node "));
        } else if (ctx.is(3, "importing") && ctx.argc() == 5) {
            if (topology.owner(slot) == myself) {
                throw new RedisError("ERR I'm already the owner of hash slot " + slot);
            }
            state.importing(slot, knownNode(ctx.text(4), "ERR I don't know about node "));
        } else if (ctx.is(3, "stable") && ctx.argc() == 4) {
            state.importing(slot, null);
            state.migrating(slot, null);
        } else if (ctx.is(3, "node") && ctx.argc() == 5) {
            assignNode(slot, knownNode(ctx.text(4), "ERR Unknown node "));
        } else {
            throw new RedisError("ERR Invalid CLUSTER SETSLOT action or number of arguments. Try CLUSTER HELP");
        }
        ctx.reply().ok();
    }

    private ClusterNodeInfo knownNode(String id, String unknown) {
        ClusterNodeInfo node = state.topology().node(id);
        if (node == null) {
            throw new RedisError(unknown + id);
        }
        return node;
    }

    /**
     * SETSLOT slot NODE id: a node that still holds keys of its slot may not give it away; a migration with no keys
     * left is over; the node that imported the slot takes a new config epoch so that its claim wins, and the former
     * owner, learning of it, drops the keys it still held in that slot (Redis's dirty slots).
     */
    private void assignNode(int slot, ClusterNodeInfo node) {
        ClusterTopology topology = state.topology();
        ClusterNodeInfo myself = state.myself();
        ClusterNodeInfo former = topology.owner(slot);
        if (former == myself && node != myself && state.slotIndex().count(slot) != 0) {
            throw new RedisError("ERR Can't assign hashslot " + slot
                    + " to a different node while I still hold keys for this hash slot.");
        }
        if (state.slotIndex().count(slot) == 0 && state.migratingTo(slot) != null) {
            state.migrating(slot, null);
        }
        if (former != null && former != node) {
            // the former owner's shard no longer serves the slot: its shard channels lose their subscribers there
            leftSlot(former, slot);
        }
        topology.assign(slot, node);
        if (node == myself && state.importingFrom(slot) != null) {
            topology.bumpEpoch(myself);
            state.importing(slot, null);
            if (former != null && former != myself && topology.peer(former) != null) {
                topology.peer(former).lostSlot(slot);
            }
        }
    }

    /** Every node of {@code master}'s shard (it and its replicas) drops its shard-channel subscribers of a slot. */
    private void leftSlot(ClusterNodeInfo master, int slot) {
        ClusterTopology topology = state.topology();
        java.util.List<ClusterNodeInfo> shard = new java.util.ArrayList<>(topology.replicasOf(master));
        shard.add(0, master);
        for (ClusterNodeInfo node : shard) {
            if (topology.peer(node) != null) {
                topology.peer(node).leftSlots(s -> s == slot);
            }
        }
    }

    /** BUMPEPOCH: "BUMPED epoch" when this node took a new config epoch, "STILL epoch" when it had the highest. */
    private void bumpEpoch(CommandContext ctx) {
        boolean bumped = state.topology().bumpEpoch(state.myself());
        ctx.reply().simple((bumped ? "BUMPED " : "STILL ") + state.myself().configEpoch());
    }

    /** SET-CONFIG-EPOCH: only for a node that knows no other, whose epoch is still 0; a formed cluster refuses it. */
    private void setConfigEpoch(CommandContext ctx) {
        long epoch = ctx.longArg(2);
        if (epoch < 0) {
            throw new RedisError("ERR Invalid config epoch specified: " + epoch);
        }
        if (state.topology().nodes().size() > 1) {
            throw new RedisError(
                    "ERR The user can assign a config epoch only when the node does not know any other node.");
        }
        // a simulated node gets its config epoch with the cluster, so none is still at 0
        throw new RedisError("ERR Node config epoch is already non-zero");
    }
}
