package dev.redsim.simulator;

import dev.redsim.simulator.cluster.ClusterNodeInfo;
import dev.redsim.simulator.cluster.ClusterPeer;
import dev.redsim.simulator.cluster.ClusterState;
import dev.redsim.simulator.keyspace.Bytes;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One slot moving from its owner to another node of a {@link RedisCluster}, step by step as redis-cli --cluster
 * reshard moves it (clusterManagerMoveSlot): {@link RedisCluster#startSlotMigration} opens it (CLUSTER SETSLOT
 * IMPORTING on the target, then MIGRATING on the source), {@link #migrateKeys} moves a batch of keys with MIGRATE ...
 * KEYS, and {@link #finish} moves the rest and gives the slot to the target (SETSLOT NODE on the target, the source,
 * then every other node). Between the steps clients meet -ASK and -TRYAGAIN as they would on a real cluster. Every
 * step runs as commands on the nodes themselves (through their own call path), on the cluster's thread.
 */
public final class SlotMigration {
    /** redis-cli's default --cluster-pipeline: the keys moved per MIGRATE. */
    public static final int DEFAULT_BATCH = 10;
    private static final long MIGRATE_TIMEOUT_MS = 60_000;

    private final RedisCluster cluster;
    private final int slot;
    private final int source;
    private final int target;
    private boolean finished;

    SlotMigration(RedisCluster cluster, int slot, int source, int target) {
        this.cluster = cluster;
        this.slot = slot;
        this.source = source;
        this.target = target;
    }

    /** Opens the migration: the target imports the slot, then the source migrates it (redis-cli's order). */
    void open() {
        run(target, "CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", cluster.nodeId(source));
        run(source, "CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", cluster.nodeId(target));
    }

    public int slot() {
        return slot;
    }

    /** Keys of the slot still on the source. */
    public int keysLeft() {
        RedisSimulator node = cluster.nodes().get(source);
        return node.onEngine(() -> node.clusterState().slotIndex().count(slot));
    }

    /**
     * Moves up to {@code count} of the slot's keys (the newest first, as CLUSTER GETKEYSINSLOT lists them) to the
     * target with one MIGRATE ... KEYS; returns how many it moved.
     */
    public int migrateKeys(int count) {
        if (count <= 0) {
            throw new IllegalArgumentException("count must be positive: " + count);
        }
        RedisSimulator node = cluster.nodes().get(source);
        return node.onEngine(() -> {
            ClusterState state = node.clusterState();
            List<Bytes> keys = state.slotIndex().keys(slot, count);
            if (keys.isEmpty()) {
                return 0;
            }
            ClusterNodeInfo to = state.topology().nodes().get(target);
            List<byte[]> command = new ArrayList<>();
            for (String word : new String[] {"MIGRATE", to.host(), Integer.toString(to.port()), "", "0",
                    Long.toString(MIGRATE_TIMEOUT_MS), "KEYS"}) {
                command.add(word.getBytes(StandardCharsets.UTF_8));
            }
            keys.forEach(key -> command.add(key.bytes()));
            expectOk(source, peer(source).call(command.toArray(new byte[0][])), "MIGRATE");
            return keys.size();
        });
    }

    /** Moves every key left, then makes the target the slot's owner on every node. */
    public void finish() {
        if (finished) {
            return;
        }
        while (migrateKeys(SlotMigration.DEFAULT_BATCH) > 0) {
            // batch after batch, as redis-cli does, until the slot is empty on the source
        }
        String slotText = Integer.toString(slot);
        String owner = cluster.nodeId(target);
        run(target, "CLUSTER", "SETSLOT", slotText, "NODE", owner);
        run(source, "CLUSTER", "SETSLOT", slotText, "NODE", owner);
        for (int i = 0; i < cluster.nodes().size(); i++) {
            if (i != target && i != source) {
                run(i, "CLUSTER", "SETSLOT", slotText, "NODE", owner);
            }
        }
        finished = true;
    }

    private ClusterPeer.Client peer(int index) {
        RedisSimulator node = cluster.nodes().get(index);
        ClusterState state = node.clusterState();
        return state.topology().peer(state.myself()).connect();
    }

    private void run(int index, String... words) {
        RedisSimulator node = cluster.nodes().get(index);
        node.onEngine(() -> {
            byte[][] args = new byte[words.length][];
            for (int i = 0; i < words.length; i++) {
                args[i] = words[i].getBytes(StandardCharsets.UTF_8);
            }
            expectOk(index, peer(index).call(args), String.join(" ", words));
            return null;
        });
    }

    private static void expectOk(int index, String reply, String command) {
        if (!"+OK".equals(reply)) {
            throw new IllegalStateException("node " + index + " refused " + command + ": " + reply);
        }
    }
}
