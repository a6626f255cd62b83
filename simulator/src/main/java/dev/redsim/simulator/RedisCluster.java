package dev.redsim.simulator;

import dev.redsim.simulator.cluster.ClusterBus;
import dev.redsim.simulator.cluster.ClusterNodeInfo;
import dev.redsim.simulator.cluster.ClusterTopology;
import dev.redsim.simulator.cluster.FailureDetector;
import dev.redsim.simulator.cluster.SlotSplit;
import dev.redsim.simulator.util.KeyHashSlot;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * An in-process Redis Cluster: N masters (3 by default) and R replicas of each (none by default), each a
 * {@link RedisSimulator} on its own free port of 127.0.0.1 with its own keyspace, all on one event loop thread and one
 * clock (decision 0015), the slots split as redis-cli --cluster create splits them. A replica applies its master's
 * writes right after each command (decision 0022); {@link #failover} puts a replica in its master's place. A cluster client pointed at any node finds the others through CLUSTER
 * SLOTS / SHARDS / NODES and follows MOVED redirections.
 *
 * <pre>{@code
 * try (RedisCluster cluster = RedisSimulator.cluster().start()) {
 *     JedisCluster jedis = new JedisCluster(Set.of(new HostAndPort(cluster.host(), cluster.ports().get(0))));
 * }
 * }</pre>
 */
public final class RedisCluster implements AutoCloseable {
    private final RedisSimulator.SharedLoop loop;
    private final List<RedisSimulator> nodes;
    private final ClusterTopology topology;
    private final FailureDetector failures;

    private RedisCluster(RedisSimulator.SharedLoop loop, List<RedisSimulator> nodes, ClusterTopology topology) {
        this.loop = loop;
        this.nodes = List.copyOf(nodes);
        this.topology = topology;
        this.failures = new FailureDetector(topology, new FailureDetector.NodeSettings() {
            @Override
            public long nodeTimeout(ClusterNodeInfo node) {
                return config(node).getLong("cluster-node-timeout");
            }

            @Override
            public boolean noFailover(ClusterNodeInfo node) {
                return "yes".equals(config(node).get("cluster-replica-no-failover"));
            }
        });
    }

    private dev.redsim.simulator.engine.Config config(ClusterNodeInfo node) {
        return nodes.get(topology.nodes().indexOf(node)).engine().config();
    }

    /**
     * Stops node {@code index} as if its process were killed: its port refuses connections, its clients are cut
     * off, it answers no ping. The other nodes mark it PFAIL after cluster-node-timeout and FAIL half a timeout later
     * when a majority of the masters serving slots agree; a replica of a FAIL master then wins an election and takes
     * its place (see {@link FailureDetector}). All of it on the cluster's one clock: a test moves it with
     * {@link #advanceTime} (or lets it run). Its data stay in memory until {@link #start} restarts it empty.
     */
    public void stop(int index) {
        checkIndex(index);
        nodes.get(0).onEngine(() -> {
            ClusterNodeInfo info = topology.nodes().get(index);
            if (info.stopped()) {
                throw new IllegalStateException("node " + index + " is stopped already");
            }
            RedisSimulator node = nodes.get(index);
            node.crash();
            node.replicaRole().stop(); // a replica's master drops the link; a master's replicas hear nothing more
            info.stopped(true, loop.time().millis());
            detectFailures();
            return null;
        });
    }

    /**
     * Starts a stopped node again on its port, as redis-server restarted without persistence but with its cluster
     * config file: the same ID, no keys and no functions. A master whose replica took its place meanwhile becomes
     * that shard's replica and loads its master's data; a replica loads its master's data again; a master that kept
     * its slots serves them empty. Its PFAIL ends at once, its FAIL as Redis ends it (see {@link FailureDetector}).
     */
    public void start(int index) {
        checkIndex(index);
        nodes.get(0).onEngine(() -> {
            ClusterNodeInfo info = topology.nodes().get(index);
            if (!info.stopped()) {
                throw new IllegalStateException("node " + index + " is running");
            }
            nodes.get(index).restartEmpty();
            info.stopped(false, loop.time().millis());
            topology.rejoin(info);
            rewireReplication(false);
            detectFailures();
            return null;
        });
    }

    /** Whether node {@code index} is stopped ({@link #stop}). */
    public boolean isStopped(int index) {
        checkIndex(index);
        return nodes.get(0).onEngine(() -> topology.nodes().get(index).stopped());
    }

    private void checkIndex(int index) {
        if (index < 0 || index >= nodes.size()) {
            throw new IllegalArgumentException("no node " + index);
        }
    }

    /** Brings the nodes' verdicts on each other up to the clock and carries out the elections won. Engine thread. */
    private void detectFailures() {
        failures.advance(loop.time().millis(), replica -> promote(replica, true));
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Every node as the cluster was created: the masters in slot order (the first serves slot 0), then the replicas,
     * those of the first master first. A failover changes roles, not this order.
     */
    public List<RedisSimulator> nodes() {
        return nodes;
    }

    public String host() {
        return nodes.get(0).host();
    }

    public List<Integer> ports() {
        return nodes.stream().map(RedisSimulator::port).toList();
    }

    /** Every node as host:port, in the order of {@link #nodes()}. */
    public List<String> addresses() {
        return nodes.stream().map(n -> n.host() + ":" + n.port()).toList();
    }

    /** A node's 40-character ID (its CLUSTER MYID). */
    public String nodeId(int index) {
        return topology.nodes().get(index).id();
    }

    /** The node serving a key's slot now. */
    public RedisSimulator nodeFor(String key) {
        int owner = ownerOf(slotOf(key));
        if (owner < 0) {
            throw new IllegalStateException("the slot of " + key + " is served by no node");
        }
        return nodes.get(owner);
    }

    /**
     * Puts a replica in its master's place, as CLUSTER FAILOVER sent to it does (an election: the replica takes the
     * next config epoch); its former master and the master's other replicas replicate it from then on, and clients
     * meet MOVED to it. {@code replicaIndex} is an index of {@link #nodes()}.
     */
    public void failover(int replicaIndex) {
        if (replicaIndex < 0 || replicaIndex >= nodes.size()) {
            throw new IllegalArgumentException("no node " + replicaIndex);
        }
        if (masterOf(replicaIndex) < 0) {
            throw new IllegalArgumentException("node " + replicaIndex + " is a master");
        }
        nodes.get(0).onEngine(() -> {
            promote(topology.nodes().get(replicaIndex), true);
            return null;
        });
    }

    /** The index of {@link #nodes()} of the node {@code index} replicates now, or -1 when it is a master. */
    public int masterOf(int index) {
        return nodes.get(0).onEngine(() -> {
            ClusterNodeInfo master = topology.nodes().get(index).master();
            return master == null ? -1 : topology.nodes().indexOf(master);
        });
    }

    /**
     * The replica becomes its shard's master on every node's view and in the replication links; its former master
     * follows it unless it is stopped (it learns of it when it starts again). The former master and its other
     * replicas drop their shard channels' subscribers of the shard's slots, as Redis 7.0's nodes do when the slots
     * pass to the new master (the promoted replica keeps its own). Engine thread.
     */
    private void promote(ClusterNodeInfo replica, boolean election) {
        ClusterNodeInfo former = replica.master();
        leaveShardChannels(former, replica);
        topology.promote(replica, election, !former.stopped());
        rewireReplication(true);
    }

    /** The nodes of {@code former}'s shard but {@code promoted} lose their shard subscribers of its slots. */
    private void leaveShardChannels(ClusterNodeInfo former, ClusterNodeInfo promoted) {
        List<ClusterNodeInfo.SlotRange> slots = former.slots();
        if (slots.isEmpty()) {
            return;
        }
        java.util.function.IntPredicate inShard = slot -> {
            for (ClusterNodeInfo.SlotRange range : slots) {
                if (slot >= range.first() && slot <= range.last()) {
                    return true;
                }
            }
            return false;
        };
        List<ClusterNodeInfo> shard = new ArrayList<>(topology.replicasOf(former));
        shard.add(former);
        for (ClusterNodeInfo node : shard) {
            if (node != promoted && !node.stopped()) {
                topology.peer(node).leftSlots(inShard);
            }
        }
    }

    /**
     * Makes every node's replication follow the topology's roles: a node that became a master stops replicating, a
     * node that replicates another master now attaches to it ({@code continued}: it shares the new master's history,
     * as after a failover; otherwise it loads the master's data first). Masters first, so replicas attach to masters.
     */
    private void rewireReplication(boolean continued) {
        List<ClusterNodeInfo> infos = topology.nodes();
        for (int i = 0; i < nodes.size(); i++) {
            NodeReplication role = nodes.get(i).replicaRole();
            if (!infos.get(i).isReplica() && role.isReplica()) {
                role.becomeMaster();
            }
        }
        for (int i = 0; i < nodes.size(); i++) {
            ClusterNodeInfo master = infos.get(i).master();
            if (master != null && !infos.get(i).stopped() && !master.stopped()) {
                NodeReplication masterRole = nodes.get(infos.indexOf(master)).replicaRole();
                if (!nodes.get(i).replicaRole().replicates(masterRole)) {
                    nodes.get(i).replicaRole().replicate(masterRole, continued);
                }
            }
        }
    }

    /** The index of the node serving a slot now, or -1 when none does. */
    public int ownerOf(int slot) {
        return nodes.get(0).onEngine(() -> topology.nodes().indexOf(topology.owner(slot)));
    }

    /**
     * Moves a slot with its keys to node {@code targetIndex}, as redis-cli --cluster reshard does (see
     * {@link SlotMigration}); clients follow with the redirections they would meet on a real cluster.
     */
    public void moveSlot(int slot, int targetIndex) {
        startSlotMigration(slot, targetIndex).finish();
    }

    /**
     * Opens the move of a slot to node {@code targetIndex} and returns it, for a test that works while the slot is
     * half moved: {@link SlotMigration#migrateKeys} moves keys batch by batch, {@link SlotMigration#finish} closes it.
     */
    public SlotMigration startSlotMigration(int slot, int targetIndex) {
        if (slot < 0 || slot >= KeyHashSlot.SLOTS) {
            throw new IllegalArgumentException("slot out of range: " + slot);
        }
        if (targetIndex < 0 || targetIndex >= nodes.size()) {
            throw new IllegalArgumentException("no node " + targetIndex);
        }
        int source = ownerOf(slot);
        if (source < 0) {
            throw new IllegalStateException("slot " + slot + " is served by no node");
        }
        if (source == targetIndex) {
            throw new IllegalArgumentException("node " + targetIndex + " already serves slot " + slot);
        }
        SlotMigration migration = new SlotMigration(this, slot, source, targetIndex);
        migration.open();
        return migration;
    }

    /** The slot a key hashes to (CLUSTER KEYSLOT). */
    public static int slotOf(String key) {
        return KeyHashSlot.of(key.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Gives every slot back to the node that served it when the cluster started, with the config epochs and the roles
     * of then (a replica that changed master loads its master's data again), and closes every open migration; keys
     * stay where they are (call {@link #flushAll()} too for a fresh cluster).
     */
    public void resetTopology() {
        nodes.get(0).onEngine(() -> {
            for (int i = 0; i < nodes.size(); i++) {
                ClusterNodeInfo info = topology.nodes().get(i);
                if (info.stopped()) { // a node a test stopped runs again, empty, as after start(i)
                    nodes.get(i).restartEmpty();
                    info.stopped(false, loop.time().millis());
                }
            }
            topology.restoreInitial();
            nodes.forEach(node -> node.clusterState().closeOpenSlots());
            rewireReplication(false);
            return null;
        });
    }

    /** Stops the cluster's one clock (see {@link RedisSimulator#freezeTime()}). */
    public void freezeTime() {
        loop.time().freeze();
    }

    public void unfreezeTime() {
        loop.time().unfreeze();
    }

    /** Moves the cluster's one clock forward; every node expires what became due before this returns. */
    public void advanceTime(Duration amount) {
        loop.time().advance(amount);
        nodes.forEach(RedisSimulator::afterTimeAdvanced);
        nodes.get(0).onEngine(() -> {
            detectFailures();
            return null;
        });
    }

    /** Puts the cluster's clock back on the builder's clock, running (see {@link RedisSimulator#resetTime()}). */
    public void resetTime() {
        loop.time().reset();
    }

    public long currentTimeMillis() {
        return loop.time().millis();
    }

    /** FLUSHALL on every node, from outside any connection. */
    public void flushAll() {
        nodes.forEach(RedisSimulator::flushAll);
    }

    /**
     * The bus between the nodes: a PUBLISH reaches every other node as a task of the one engine thread, after the
     * publishing command (and its batch) is done, as a message over Redis's bus arrives after the publisher's reply;
     * a failover changes every node at once, on the thread it was asked on.
     */
    private ClusterBus bus(List<ClusterNodeInfo> infos) {
        return new ClusterBus() {
            @Override
            public void publish(ClusterNodeInfo from, byte[] channel, byte[] message) {
                for (int i = 0; i < nodes.size(); i++) {
                    if (infos.get(i) != from) {
                        RedisSimulator node = nodes.get(i);
                        loop.threads().execute(() -> node.receiveClusterPublish(channel, message));
                    }
                }
            }

            @Override
            public void publishShard(ClusterNodeInfo from, byte[] channel, byte[] message) {
                ClusterNodeInfo master = from.isReplica() ? from.master() : from;
                for (int i = 0; i < nodes.size(); i++) {
                    ClusterNodeInfo node = infos.get(i);
                    if (node != from && (node == master || node.master() == master)) {
                        RedisSimulator receiver = nodes.get(i);
                        loop.threads().execute(() -> receiver.receiveClusterShardPublish(channel, message));
                    }
                }
            }

            @Override
            public void failover(ClusterNodeInfo replica, boolean election) {
                promote(replica, election);
            }
        };
    }

    /** Closes every node's listener, then the shared threads (and with them every connection). */
    @Override
    public void close() {
        try {
            nodes.forEach(RedisSimulator::close);
        } finally {
            loop.stop();
        }
    }

    /** Options for a cluster; defaults: 3 masters, no replicas, the system clock. */
    public static final class Builder {
        private int masters = 3;
        private int replicas;
        private int firstPort;
        private Clock clock = Clock.systemUTC();
        private final Map<String, String> parameters = new LinkedHashMap<>();

        public Builder masters(int count) {
            if (count < 1 || count > KeyHashSlot.SLOTS) {
                throw new IllegalArgumentException("masters out of range: " + count);
            }
            this.masters = count;
            return this;
        }

        /** Replicas of each master (default 0), each a node on its own port with its own data. */
        public Builder replicas(int perMaster) {
            if (perMaster < 0 || perMaster > 16) {
                throw new IllegalArgumentException("replicas per master out of range: " + perMaster);
            }
            this.replicas = perMaster;
            return this;
        }

        /** The first node's port, the others on the next ones (default 0: every node on a free port). */
        public Builder firstPort(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port out of range: " + port);
            }
            this.firstPort = port;
            return this;
        }

        /** The clock the whole cluster follows. */
        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /** A Redis configuration parameter every node starts with (see {@link RedisSimulator.Builder#config}). */
        public Builder config(String name, String value) {
            parameters.put(name, value);
            return this;
        }

        public RedisCluster start() {
            RedisSimulator.SharedLoop loop = RedisSimulator.SharedLoop.start(clock);
            List<RedisSimulator> started = new ArrayList<>();
            try {
                int total = masters * (1 + replicas);
                for (int i = 0; i < total; i++) {
                    RedisSimulator.Builder node = RedisSimulator.builder().clock(clock).sharedLoop(loop)
                            .port(firstPort == 0 ? 0 : firstPort + i);
                    parameters.forEach(node::config);
                    started.add(node.start());
                }
                Random random = new Random(new SecureRandom().nextLong());
                List<ClusterNodeInfo.SlotRange> split = SlotSplit.of(masters);
                List<ClusterNodeInfo> infos = new ArrayList<>();
                for (int i = 0; i < masters; i++) {
                    RedisSimulator node = started.get(i);
                    // config epochs 1..N, as redis-cli gives a different one to each node it creates
                    infos.add(new ClusterNodeInfo(nodeId(random), node.host(), node.port(), busPort(node.port()),
                            i + 1, List.of(split.get(i))));
                }
                // replicas after the masters, those of the first master first; each had its own epoch from
                // redis-cli's numbering (its config epoch shows its master's while it replicates)
                for (int i = masters; i < total; i++) {
                    RedisSimulator node = started.get(i);
                    ClusterNodeInfo replica = new ClusterNodeInfo(nodeId(random), node.host(), node.port(),
                            busPort(node.port()), i + 1, List.of());
                    replica.initialMaster(infos.get((i - masters) / replicas));
                    infos.add(replica);
                }
                ClusterTopology topology = new ClusterTopology(infos, loop.time().millis());
                for (int i = 0; i < total; i++) {
                    started.get(i).joinCluster(topology, infos.get(i));
                }
                RedisCluster cluster = new RedisCluster(loop, started, topology);
                ClusterBus bus = cluster.bus(infos);
                for (RedisSimulator node : started) {
                    node.connectClusterBus(bus);
                }
                started.get(0).onEngine(() -> {
                    cluster.rewireReplication(false);
                    return null;
                });
                // clusterCron's failure detection, at Redis's 10 times a second, for a clock that runs by itself
                loop.threads().scheduleAtFixedRate(cluster::detectFailures, 100, 100, TimeUnit.MILLISECONDS);
                return cluster;
            } catch (RuntimeException e) {
                started.forEach(RedisSimulator::close);
                loop.stop();
                throw e;
            }
        }


        /** 40 lower-case hex characters, as Redis's getRandomHexChars makes node IDs. */
        private static String nodeId(Random random) {
            StringBuilder id = new StringBuilder(40);
            for (int i = 0; i < 40; i++) {
                id.append(Character.forDigit(random.nextInt(16), 16));
            }
            return id.toString();
        }

        /** The bus port a node announces (port + 10000, as Redis by default; nothing listens there). */
        private static int busPort(int port) {
            return port + 10000 <= 65535 ? port + 10000 : port - 10000;
        }
    }
}
