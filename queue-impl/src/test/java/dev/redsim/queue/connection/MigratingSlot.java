package dev.redsim.queue.connection;

import dev.redsim.simulator.RedisCluster;
import dev.redsim.simulator.RedisSimulator;
import dev.redsim.conformance.target.SharedClusters;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.params.MigrateParams;
import redis.clients.jedis.util.JedisClusterCRC16;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * One hash tag's slot held half way through a migration, for deterministic tests of what a queue's script does on
 * the migrating master: opened by the commands redis-cli --cluster reshard sends ({@link CommandSlotMove}, which work
 * on the simulated and the real cluster alike), then only the keys a test chooses moved to the target, then finished.
 * The simulated cluster is the test's own; the real one is the JVM's (SharedClusters), and a fresh tag keeps the move
 * away from every other test's slot.
 */
final class MigratingSlot implements AutoCloseable {
    private static final int MIGRATE_TIMEOUT_MS = 5_000;

    private final RedisCluster simulated;
    private final List<HostAndPort> nodes;
    private final String tag;
    private final int slot;
    private HostAndPort source;
    private HostAndPort target;
    private CommandSlotMove move;

    private MigratingSlot(RedisCluster simulated, List<HostAndPort> nodes) {
        this.simulated = simulated;
        this.nodes = nodes;
        this.tag = "probe-" + UUID.randomUUID();
        this.slot = JedisClusterCRC16.getSlot("{" + tag + "}");
    }

    /** "simulated" (a 3-master cluster of its own) or "redis" (the JVM's 3-master redis-server cluster). */
    static MigratingSlot on(String which) {
        if (which.equals("simulated")) {
            RedisCluster cluster = RedisSimulator.cluster().masters(3).start();
            return new MigratingSlot(cluster, cluster.addresses().stream().map(HostAndPort::from).toList());
        }
        return new MigratingSlot(null, SharedClusters.reference("probe").nodes().stream().map(HostAndPort::from)
                .toList());
    }

    /** The tag (without braces) whose slot this test moves. */
    String tag() {
        return tag;
    }

    /** A cluster client over every node (no CLIENT SETINFO: nothing but the test's commands reaches the nodes). */
    JedisCluster client() {
        return new JedisCluster(new LinkedHashSet<>(nodes), DefaultJedisClientConfig.builder()
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED).socketTimeoutMillis(5000).build());
    }

    /** The target imports the slot, the source migrates it; no key has moved yet. */
    void open() {
        List<HostAndPort> masters = masters();
        source = ownerOf(slot);
        target = masters.get((masters.indexOf(source) + 1) % masters.size());
        move = new CommandSlotMove(slot, source, target, masters);
    }

    /** Moves exactly these keys from the source to the target (MIGRATE ... KEYS). */
    void migrate(String... keys) {
        try (Jedis jedis = new Jedis(source.getHost(), source.getPort())) {
            String reply = jedis.migrate(target.getHost(), target.getPort(), 0, MIGRATE_TIMEOUT_MS, new MigrateParams(),
                    keys);
            if (!"OK".equals(reply)) {
                throw new IllegalStateException("MIGRATE answered " + reply);
            }
        }
    }

    /** A connection to the migrating master, as a client with a stale slot map reaches it. */
    Jedis source() {
        return new Jedis(source.getHost(), source.getPort());
    }

    String sourceAddress() {
        return source.toString();
    }

    /**
     * Every key of the tag on the source and on the target, with its value (DUMP, sent after ASKING so the importing
     * target answers for its slot): two snapshots are equal when nothing was written in between.
     */
    Map<String, String> snapshot() {
        Map<String, String> keys = new TreeMap<>();
        for (HostAndPort node : List.of(source, target)) {
            try (Jedis jedis = new Jedis(node.getHost(), node.getPort())) {
                for (String key : NodeReads.keysOn(node.toString(), tag)) {
                    jedis.asking();
                    byte[] dump = jedis.dump(key);
                    keys.put((node.equals(source) ? "source " : "target ") + key,
                            dump == null ? "(gone)" : HexFormat.of().formatHex(dump));
                }
            }
        }
        return keys;
    }

    /** Moves the rest and gives the slot to the target on every master. */
    void finish() {
        if (move != null) {
            move.finish();
            move = null;
        }
    }

    private List<HostAndPort> masters() {
        Set<HostAndPort> masters = new LinkedHashSet<>();
        try (Jedis jedis = new Jedis(nodes.get(0).getHost(), nodes.get(0).getPort())) {
            for (Object range : jedis.clusterSlots()) {
                List<?> master = (List<?>) ((List<?>) range).get(2);
                masters.add(new HostAndPort(new String((byte[]) master.get(0)), ((Long) master.get(1)).intValue()));
            }
        }
        return new ArrayList<>(masters);
    }

    private HostAndPort ownerOf(int slot) {
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

    /** Finishes a migration left open (a failed test), so the real cluster's slot is stable for the next one. */
    @Override
    public void close() {
        try {
            finish();
        } finally {
            if (simulated != null) {
                simulated.close();
            }
        }
    }
}
