package dev.redsim.conformance.target;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.simulator.util.KeyHashSlot;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A 3-master cluster (simulated or real) as a target for a suite written for one server: its host and port are those
 * of the master serving the slot of {@link #hashTag()}. An implementation that puts every key of its queue under that
 * tag keeps them all on this node, so the suite's own checks (the kit's client on host and port, FLUSHALL, a
 * subscriber) see everything; the implementation itself connects with a cluster client seeded from {@link #nodes()}.
 * The cluster refuses what a single server allows: a key of another slot (MOVED), keys of two slots in one command
 * or transaction (CROSSSLOT), and on redis-server a script touching a key of another slot.
 */
public final class ClusterSlotTarget implements RedisTarget {
    private final String name;
    private final String hashTag;
    private final List<String> nodes;
    private final String host;
    private final int port;

    ClusterSlotTarget(String name, String hashTag, List<String> nodes) {
        this.name = name;
        this.hashTag = hashTag;
        this.nodes = List.copyOf(nodes);
        String owner = owner(nodes.get(0), KeyHashSlot.of(hashTag.getBytes(StandardCharsets.UTF_8)));
        int colon = owner.lastIndexOf(':');
        this.host = owner.substring(0, colon);
        this.port = Integer.parseInt(owner.substring(colon + 1));
    }

    /** The master serving {@code slot}, as CLUSTER SLOTS names it (host:port). */
    private static String owner(String node, int slot) {
        int colon = node.lastIndexOf(':');
        try (RespClient client = new RespClient(node.substring(0, colon), Integer.parseInt(node.substring(colon + 1)))) {
            for (RespValue range : client.call("CLUSTER", "SLOTS").children()) {
                List<RespValue> parts = range.children();
                if (parts.get(0).asLong() <= slot && slot <= parts.get(1).asLong()) {
                    List<RespValue> master = parts.get(2).children();
                    return master.get(0).text() + ":" + master.get(1).asLong();
                }
            }
        }
        throw new IllegalStateException("no node serves slot " + slot);
    }

    /** The tag (without braces) whose slot this target's node serves: "{" + hashTag() + "}" starts the key names. */
    public String hashTag() {
        return hashTag;
    }

    /** Every master as host:port, in slot order: seeds for a cluster client. */
    public List<String> nodes() {
        return nodes;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String host() {
        return host;
    }

    @Override
    public int port() {
        return port;
    }

    /** The cluster is shared (see {@link SharedClusters}); it stops when the JVM exits. */
    @Override
    public void close() {
    }
}
