package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisClusterTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.Targets;
import dev.redsim.simulator.RedisCluster;
import dev.redsim.simulator.RedisSimulator;

import java.util.List;

/**
 * A 3-master cluster (with replicas if asked) for a test that runs on both: "simulator" (an in-process {@link RedisCluster}) or "redis" (a
 * real one, {@link Targets#referenceCluster}). The nodes are in slot order: the first serves slot 0.
 */
final class ClusterUnderTest implements AutoCloseable {
    private final AutoCloseable cluster;
    private final String host;
    private final List<Integer> ports;

    /** The slots each node serves when the cluster starts (redis-cli's split of 3 masters). */
    private static final int[] FIRST_SLOTS = {0, 5461, 10923};

    private ClusterUnderTest(AutoCloseable cluster, String host, List<Integer> ports) {
        this.cluster = cluster;
        this.host = host;
        this.ports = ports;
    }

    static ClusterUnderTest start(String which) {
        return start(which, 0);
    }

    /**
     * With {@code replicasPerMaster} replicas of each master: nodes 0-2 are the masters in slot order, then the
     * replicas, those of master 0 first.
     */
    static ClusterUnderTest start(String which, int replicasPerMaster) {
        if (which.equals("simulator")) {
            RedisCluster simulated = RedisSimulator.cluster().replicas(replicasPerMaster).start();
            return new ClusterUnderTest(simulated, simulated.host(), simulated.ports());
        }
        RedisClusterTarget real = Targets.referenceCluster(3, replicasPerMaster);
        return new ClusterUnderTest(real, "127.0.0.1", real.nodes().stream().map(RedisTarget::port).toList());
    }

    /**
     * Fails master {@code master} over to its first replica (node 3 + master with one replica each), as CLUSTER
     * FAILOVER sent to the replica does: on the simulated cluster in one call, on a real one by the command, then
     * polled (round trips, bounded) until the replica is master and every node says so.
     */
    void failover(int master) {
        int replica = 3 + master;
        if (cluster instanceof RedisCluster simulated) {
            simulated.failover(replica);
            return;
        }
        String replicaId;
        try (RespClient client = new RespClient(host, ports.get(replica))) {
            replicaId = client.call("CLUSTER", "MYID").text();
            RespValue reply = client.call("CLUSTER", "FAILOVER");
            if (reply.isError()) {
                throw new IllegalStateException("CLUSTER FAILOVER: " + reply);
            }
        }
        long deadline = System.currentTimeMillis() + 10_000;
        while (!everyNodeSeesAsMaster(replicaId)) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("the failover to node " + replica + " did not complete");
            }
        }
    }

    private boolean everyNodeSeesAsMaster(String id) {
        for (int port : ports) {
            try (RespClient client = new RespClient(host, port)) {
                boolean master = client.call("CLUSTER", "NODES").text().lines()
                        .anyMatch(line -> line.startsWith(id + " ") && line.split(" ")[2].contains("master")
                                && line.split(" ").length > 8);
                if (!master) {
                    return false;
                }
            }
        }
        return true;
    }

    String host() {
        return host;
    }

    List<Integer> ports() {
        return ports;
    }

    /** Starts moving a slot (still where the cluster started it) to node {@code target}: see {@link SlotMove}. */
    SlotMove startSlotMove(int slot, int target) {
        int source = slot >= FIRST_SLOTS[2] ? 2 : slot >= FIRST_SLOTS[1] ? 1 : 0;
        if (cluster instanceof RedisCluster simulated) {
            return SlotMove.of(simulated.startSlotMigration(slot, target));
        }
        return new SlotMove.ByCommands(host, ports, slot, source, target);
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
