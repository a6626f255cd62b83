package dev.redsim.conformance.scenario;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.ClusterTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.simulator.util.KeyHashSlot;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A live cluster as one side of a scenario run: every master emptied first, then one connection per scenario client
 * and node, opened when the first step of that client on that node comes (a step's node: {@link Step#node()}),
 * switched to RESP3 with HELLO 3 under RESP3. Replies come back with node IDs and ports named ({@link ClusterNames}).
 */
public final class ClusterLiveReplies implements ReplySource {
    private static final long BLOCKED_WAIT_NANOS = 5_000_000_000L;
    /** A real node learns its peers' replication offsets from their pings, which may come seconds apart. */
    private static final long REPLICAS_WAIT_NANOS = 30_000_000_000L;
    private static final Pattern CLIENT_ID = Pattern.compile("\\{c(\\d+)\\.id}");
    /** {@code {id1}}, {@code {port1}}: node 1's ID or port on each cluster, for SETSLOT and MIGRATE. */
    private static final Pattern NODE_NAME = Pattern.compile("\\{(id|port)(\\d+)}");
    private static final Pattern BLOCKED = Pattern.compile("blocked_clients:(\\d+)");

    private final ClusterTarget cluster;
    private final List<RedisTarget> masters;
    /** The masters, then their replicas (a step's @nodeN indexes this list). */
    private final List<RedisTarget> nodes;
    private final int protocol;
    private final ClusterNames names;
    /** The master serving each slot, by its index. */
    private final int[] nodeOfSlot = new int[KeyHashSlot.SLOTS];
    private final Map<String, RespClient> clients = new HashMap<>();
    private final Map<String, Long> ids = new HashMap<>();
    private final Map<Integer, String> nodeIds = new HashMap<>();

    public ClusterLiveReplies(ClusterTarget cluster, int protocol) {
        this.cluster = cluster;
        this.masters = cluster.masters();
        this.nodes = cluster.nodes();
        this.protocol = protocol;
        this.names = new ClusterNames(nodes);
        learnSlots();
        reset();
    }

    private void learnSlots() {
        Map<Long, Integer> indexByPort = new HashMap<>();
        for (int i = 0; i < masters.size(); i++) {
            indexByPort.put((long) masters.get(i).port(), i);
        }
        try (RespClient admin = new RespClient(masters.get(0).host(), masters.get(0).port())) {
            for (RespValue range : admin.call("CLUSTER", "SLOTS").children()) {
                List<RespValue> parts = range.children();
                int node = indexByPort.get(parts.get(2).children().get(1).asLong());
                for (long slot = parts.get(0).asLong(); slot <= parts.get(1).asLong(); slot++) {
                    nodeOfSlot[(int) slot] = node;
                }
            }
        }
    }

    private void reset() {
        for (RedisTarget node : masters) {
            try (RespClient admin = new RespClient(node.host(), node.port())) {
                admin.call("FLUSHALL");
                admin.call("FUNCTION", "FLUSH", "SYNC"); // libraries survive FLUSHALL
            }
        }
        awaitBlocked(0); // clients of the previous scenario may still be closing
        if (nodes.size() > masters.size()) {
            awaitReplicasCaughtUp();
        }
    }

    /**
     * Until every replica has applied its master's stream (the FLUSHALLs included) and every node lists a replica of
     * each range in CLUSTER SLOTS (a real node learns its peers' offsets by gossip): polled by round trips, bounded. A
     * scenario then starts from the same topology replies on both clusters.
     */
    private void awaitReplicasCaughtUp() {
        long giveUp = System.nanoTime() + REPLICAS_WAIT_NANOS;
        while (!replicasCaughtUp()) {
            if (System.nanoTime() > giveUp) {
                throw new IllegalStateException(cluster.name() + ": the replicas did not catch up with their masters");
            }
        }
    }

    private boolean replicasCaughtUp() {
        Map<Long, Long> masterOffsetByPort = new HashMap<>();
        Map<Long, Long> replicaOffsetByMasterPort = new HashMap<>();
        for (RedisTarget node : nodes) {
            try (RespClient admin = new RespClient(node.host(), node.port())) {
                List<RespValue> role = admin.call("ROLE").children();
                if (role.get(0).text().equals("master")) {
                    masterOffsetByPort.put((long) node.port(), role.get(1).asLong());
                } else {
                    replicaOffsetByMasterPort.merge(role.get(2).asLong(), role.get(4).asLong(), Math::min);
                }
                for (RespValue range : admin.call("CLUSTER", "SLOTS").children()) {
                    if (range.children().size() < 4) {
                        return false;
                    }
                }
                if (!knowsPeerOffsets(admin.call("CLUSTER", "SHARDS"))) {
                    return false;
                }
            }
        }
        for (Map.Entry<Long, Long> replica : replicaOffsetByMasterPort.entrySet()) {
            if (!replica.getValue().equals(masterOffsetByPort.get(replica.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a node's CLUSTER SHARDS gives every member of a replicated shard a replication offset: a real node
     * reports a peer's offset as 0 until that peer's first ping since replication began reaches it.
     */
    private static boolean knowsPeerOffsets(RespValue shards) {
        for (RespValue shard : shards.children()) {
            List<RespValue> members = shard.children().get(3).children();
            if (members.size() < 2) {
                continue;
            }
            for (RespValue member : members) {
                List<RespValue> fields = member.children();
                for (int i = 0; i + 1 < fields.size(); i += 2) {
                    if (fields.get(i).text().equals("replication-offset") && fields.get(i + 1).asLong() == 0) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    @Override
    public String name() {
        return cluster.name();
    }

    @Override
    public void send(Step step) {
        connection(step.client(), node(step)).send(withClientIds(step.args(), node(step)));
    }

    @Override
    public RespValue receive(Step step) {
        RespValue reply = connection(step.client(), node(step)).read();
        return names.normalise(step.io() == Step.Io.CALL ? step.args() : null, reply);
    }

    @Override
    public boolean awaitBlocked(Step step, long count) {
        connection(step.client(), node(step)); // as a command would, the step's client connects first
        return awaitBlocked(count);
    }

    /** The index of the step's node: 0 unless the step names one by index or by a key it serves. */
    private int node(Step step) {
        if (step.node() == null) {
            return 0;
        }
        if (step.node().startsWith("of:")) {
            return nodeOfSlot[KeyHashSlot.of(step.node().substring(3).getBytes(StandardCharsets.UTF_8))];
        }
        int index = Integer.parseInt(step.node());
        if (index >= nodes.size()) {
            throw new IllegalArgumentException("no node " + index + " in a cluster of " + nodes.size() + " nodes");
        }
        return index;
    }

    /**
     * {@code {cN.id}}: the CLIENT ID of scenario client N's connection to the same node; {@code {idN}} and
     * {@code {portN}}: node N's ID and port (the replies name them back, see {@link ClusterNames}).
     */
    private byte[][] withClientIds(byte[][] args, int node) {
        byte[][] resolved = args;
        for (int i = 0; i < args.length; i++) {
            String arg = new String(args[i], StandardCharsets.ISO_8859_1);
            String value = null;
            Matcher m = CLIENT_ID.matcher(arg);
            Matcher named = NODE_NAME.matcher(arg);
            if (m.matches()) {
                int n = Integer.parseInt(m.group(1));
                value = Long.toString(ids.computeIfAbsent(n + "@" + node,
                        c -> connection(n, node).call("CLIENT", "ID").asLong()));
            } else if (named.matches()) {
                int n = Integer.parseInt(named.group(2));
                if (n >= nodes.size()) {
                    throw new IllegalArgumentException("no node " + n + " in a cluster of " + nodes.size() + " nodes");
                }
                value = named.group(1).equals("port") ? Integer.toString(nodes.get(n).port()) : nodeId(n);
            }
            if (value != null) {
                if (resolved == args) {
                    resolved = args.clone();
                }
                resolved[i] = value.getBytes(StandardCharsets.US_ASCII);
            }
        }
        return resolved;
    }

    private String nodeId(int node) {
        return nodeIds.computeIfAbsent(node, n -> {
            try (RespClient admin = new RespClient(nodes.get(n).host(), nodes.get(n).port())) {
                return admin.call("CLUSTER", "MYID").text();
            }
        });
    }

    private RespClient connection(int client, int node) {
        return clients.computeIfAbsent(client + "@" + node, c -> {
            RespClient connection = new RespClient(nodes.get(node).host(), nodes.get(node).port());
            if (protocol == 3) {
                connection.call("HELLO", "3");
            }
            return connection;
        });
    }

    /** Waits (at most 5 seconds) until the nodes' blocked_clients add up to {@code count}. */
    private boolean awaitBlocked(long count) {
        long giveUp = System.nanoTime() + BLOCKED_WAIT_NANOS;
        while (true) {
            long blocked = 0;
            for (RedisTarget node : nodes) {
                try (RespClient admin = new RespClient(node.host(), node.port())) {
                    Matcher m = BLOCKED.matcher(admin.call("INFO", "clients").text());
                    blocked += m.find() ? Long.parseLong(m.group(1)) : 0;
                }
            }
            if (blocked == count) {
                return true;
            }
            if (System.nanoTime() > giveUp) {
                return false;
            }
        }
    }

    @Override
    public void close() {
        clients.values().forEach(RespClient::close);
    }
}
