package dev.redsim.queue.connection;

import dev.redsim.conformance.target.ClusterSlotTarget;
import dev.redsim.conformance.target.RedisClusterTarget;
import dev.redsim.conformance.target.SharedClusters;
import dev.redsim.simulator.RedisCluster;
import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.SlotMigration;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.JedisClusterCRC16;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The 3-master cluster of a racing run ({@link QueueRaces}), simulated or real, and the disruptions it can put a slot
 * through: a migration to the next master ({@link SlotMove}) and, with replicas, a failover of the slot's master to
 * its replica (the simulated cluster's {@link RedisCluster#failover}; on a real one CLUSTER FAILOVER sent to the
 * replica, {@link CommandFailover}). The real clusters are the JVM's: without replicas SharedClusters' one, with them
 * {@link ReplicatedReferenceCluster}; each run uses a tag of its own, so moving or failing over its slot disturbs no
 * other run (a later one finds the slot's master wherever it is by then).
 */
final class RaceCluster implements AutoCloseable {
    private static final int MASTERS = 3;

    private final RedisCluster simulated;
    private final List<HostAndPort> nodes;
    /** The JVM's real cluster with replicas, whose shards' failovers are counted (ReplicatedReferenceCluster). */
    private final boolean sharedReplicas;

    private RaceCluster(RedisCluster simulated, List<HostAndPort> nodes, boolean sharedReplicas) {
        this.simulated = simulated;
        this.nodes = nodes;
        this.sharedReplicas = sharedReplicas;
    }

    /** "simulated" or "redis", with {@code replicasPerMaster} replicas of each of the 3 masters. */
    static RaceCluster start(String which, int replicasPerMaster) {
        if (which.equals("simulated")) {
            RedisCluster cluster = RedisSimulator.cluster().masters(3).replicas(replicasPerMaster).start();
            return new RaceCluster(cluster, cluster.addresses().stream().map(HostAndPort::from).toList(), false);
        }
        if (replicasPerMaster == 0) {
            ClusterSlotTarget any = SharedClusters.reference("race");
            return new RaceCluster(null, any.nodes().stream().map(HostAndPort::from).toList(), false);
        }
        if (replicasPerMaster != 1) {
            throw new IllegalArgumentException("the real clusters of the runs have no replica or one per master");
        }
        RedisClusterTarget real = ReplicatedReferenceCluster.get();
        return new RaceCluster(null, real.nodes().stream().map(n -> new HostAndPort(n.host(), n.port())).toList(),
                true);
    }

    /**
     * A new queue name ("race-<uuid>") for a run, whose slot key is {@code slotKeyOf(name)}; on the shared real cluster
     * with replicas, one whose slot is on a shard failed over least so far (see ReplicatedReferenceCluster: a third
     * failover of a shard within twice the node timeout gets no votes).
     */
    String freshName(Function<String, String> slotKeyOf) {
        if (!sharedReplicas) {
            return "race-" + UUID.randomUUID();
        }
        Set<String> shards = new LinkedHashSet<>();
        for (HostAndPort master : masters()) {
            shards.add(shardOf(master));
        }
        int fewest = ReplicatedReferenceCluster.fewestFailovers(shards);
        while (true) {
            String name = "race-" + UUID.randomUUID();
            HostAndPort master = ownerOf(JedisClusterCRC16.getSlot(slotKeyOf.apply(name)));
            if (ReplicatedReferenceCluster.failovers(shardOf(master)) == fewest) {
                return name;
            }
        }
    }

    /** A shard's name: its master's and its replica's addresses, sorted (a failover swaps their roles). */
    private static String shardOf(HostAndPort master) {
        try (Jedis jedis = new Jedis(master.getHost(), master.getPort())) {
            List<String> names = new java.util.ArrayList<>(List.of(master.toString()));
            for (String line : jedis.clusterReplicas(jedis.clusterMyId())) {
                String address = line.split(" ")[1];
                names.add(address.substring(0, address.indexOf('@')));
            }
            names.sort(null);
            return String.join("|", names);
        }
    }

    /** Every node (the seeds of the run's clients: after failovers any of them may be a master). */
    List<HostAndPort> nodes() {
        return nodes;
    }

    /** The masters serving slots now, as the first node's CLUSTER SLOTS lists them (a migration's target is the next). */
    private List<HostAndPort> masters() {
        Set<HostAndPort> masters = new LinkedHashSet<>();
        try (Jedis jedis = new Jedis(nodes.get(0).getHost(), nodes.get(0).getPort())) {
            for (Object range : jedis.clusterSlots()) {
                List<?> master = (List<?>) ((List<?>) range).get(2);
                masters.add(new HostAndPort(new String((byte[]) master.get(0)), ((Long) master.get(1)).intValue()));
            }
        }
        return List.copyOf(masters);
    }

    /** Moves {@code slot} from its master to the next one, key batch by key batch, while the run goes on. */
    RaceDisruption migration(int slot) {
        return new SlotMigrationDisruption(() -> startMoving(slot));
    }

    /** Fails the master of {@code slot} over to its replica while the run goes on. */
    RaceDisruption failover(int slot) {
        return new FailoverDisruption(this, slot);
    }

    /** Opens the migration of {@code slot} to the next master; the caller moves its keys and finishes it. */
    SlotMove startMoving(int slot) {
        if (simulated != null) {
            int from = simulated.ownerOf(slot);
            int to = (from + 1) % MASTERS;
            SlotMigration migration = simulated.startSlotMigration(slot, to);
            String source = simulated.addresses().get(from);
            String target = simulated.addresses().get(to);
            return new SlotMove() {
                @Override
                public int migrateKeys(int count) {
                    return migration.migrateKeys(count);
                }

                @Override
                public void finish() {
                    migration.finish();
                }

                @Override
                public String source() {
                    return source;
                }

                @Override
                public String target() {
                    return target;
                }
            };
        }
        HostAndPort source = ownerOf(slot);
        List<HostAndPort> masters = masters();
        HostAndPort target = masters.get((masters.indexOf(source) + 1) % masters.size());
        return new CommandSlotMove(slot, source, target, masters);
    }

    /** The master serving {@code slot} now, as the first node's CLUSTER SLOTS says. */
    HostAndPort ownerOf(int slot) {
        try (Jedis jedis = new Jedis(nodes.get(0).getHost(), nodes.get(0).getPort())) {
            for (Object range : jedis.clusterSlots()) {
                List<?> parts = (List<?>) range;
                if ((Long) parts.get(0) <= slot && slot <= (Long) parts.get(1)) {
                    List<?> master = (List<?>) parts.get(2);
                    return new HostAndPort(new String((byte[]) master.get(0)), ((Long) master.get(1)).intValue());
                }
            }
        }
        throw new IllegalStateException("no master serves slot " + slot);
    }

    /**
     * Puts the replica of {@code slot}'s master in its place and returns {former master, new master}: on the
     * simulated cluster in one call; on a real one by CLUSTER FAILOVER (not FORCE: the master stops its writers until
     * the replica has caught up), polled until every node sees the replica as the slot's master (bounded).
     */
    HostAndPort[] failOver(int slot, Duration bound) {
        if (simulated != null) {
            int master = simulated.ownerOf(slot);
            for (int i = 0; i < simulated.nodes().size(); i++) {
                if (simulated.masterOf(i) == master) {
                    simulated.failover(i);
                    return new HostAndPort[] {nodes.get(master), nodes.get(i)};
                }
            }
            throw new IllegalStateException("master " + master + " has no replica to fail over to");
        }
        HostAndPort master = ownerOf(slot);
        String shard = shardOf(master);
        HostAndPort promoted = CommandFailover.toReplicaOf(master, nodes, bound);
        if (sharedReplicas) {
            ReplicatedReferenceCluster.failedOver(shard);
        }
        return new HostAndPort[] {master, promoted};
    }

    /** Stops a simulated cluster; the real ones are the JVM's, stopped when it exits. */
    @Override
    public void close() {
        if (simulated != null) {
            simulated.close();
        }
    }
}
