package dev.redsim.simulator.commands.cluster;

import dev.redsim.simulator.cluster.ClusterNodeInfo;
import dev.redsim.simulator.cluster.ClusterState;
import dev.redsim.simulator.cluster.ClusterTopology;
import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandHandler;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.util.KeyHashSlot;

import java.util.List;

/**
 * CLUSTER (the subcommands a client and a test need to see the topology and the keys by slot), READONLY, READWRITE
 * and ASKING, as a Redis 7.0 cluster node answers them (cluster.c); on a standalone server every one of them is
 * refused as Redis refuses it there.
 */
public final class ClusterCommands implements CommandFamily {
    private static final RedisError DISABLED = new RedisError("ERR This instance has cluster support disabled");

    private final ClusterState state;

    public ClusterCommands(ClusterState state) {
        this.state = state;
    }

    @Override
    public void register(CommandTable t) {
        t.handler("cluster|info", enabled(this::info));
        t.handler("cluster|myid", enabled(ctx -> ctx.reply().bulk(state.myself().id())));
        t.handler("cluster|nodes", enabled(ctx -> ctx.reply().verbatim(ClusterNodesText.of(state, ctx.now()))));
        t.handler("cluster|slots", enabled(this::slots));
        t.handler("cluster|shards", enabled(this::shards));
        t.handler("cluster|links", enabled(this::links));
        t.handler("cluster|keyslot", enabled(ctx -> ctx.reply().integer(KeyHashSlot.of(ctx.arg(2)))));
        t.handler("cluster|countkeysinslot", enabled(this::countKeysInSlot));
        t.handler("cluster|getkeysinslot", enabled(this::getKeysInSlot));
        t.handler("cluster|replicas", enabled(this::replicas));
        t.handler("cluster|slaves", enabled(this::replicas));
        t.handler("readonly", enabled(ctx -> ctx.reply().ok()));
        t.handler("readwrite", enabled(ctx -> ctx.reply().ok()));
        t.handler("asking", enabled(ctx -> {
            ctx.client().asking(true);
            ctx.reply().ok();
        }));
        new ClusterSlotCommands(state).register(t, this::enabled);
    }

    private CommandHandler enabled(CommandHandler handler) {
        return ctx -> {
            if (!state.enabled()) {
                throw DISABLED;
            }
            handler.execute(ctx);
        };
    }

    /** CLUSTER INFO: the state, slot counts and epochs; no bus, so no bus message counts but the two totals. */
    private void info(CommandContext ctx) {
        ClusterTopology topology = state.topology();
        int assigned = topology.assignedSlots();
        long size = topology.nodes().stream().filter(n -> !n.slots().isEmpty()).count();
        String text = "cluster_state:" + (topology.fullyCovered() ? "ok" : "fail") + "\r\n"
                + "cluster_slots_assigned:" + assigned + "\r\n"
                + "cluster_slots_ok:" + assigned + "\r\n"
                + "cluster_slots_pfail:0\r\n"
                + "cluster_slots_fail:0\r\n"
                + "cluster_known_nodes:" + topology.nodes().size() + "\r\n"
                + "cluster_size:" + size + "\r\n"
                + "cluster_current_epoch:" + topology.currentEpoch() + "\r\n"
                + "cluster_my_epoch:" + state.myself().configEpoch() + "\r\n"
                + "cluster_stats_messages_sent:0\r\n"
                + "cluster_stats_messages_received:0\r\n"
                + "total_cluster_links_buffer_limit_exceeded:0\r\n";
        ctx.reply().verbatim(text);
    }

    /** CLUSTER SLOTS: every range in slot order, with its master (ip, port, id, no extra networking metadata). */
    private void slots(CommandContext ctx) {
        Reply reply = ctx.reply();
        List<Served> served = Served.inSlotOrder(state.topology());
        reply.array(served.size());
        for (Served range : served) {
            reply.array(3);
            reply.integer(range.range().first());
            reply.integer(range.range().last());
            ClusterNodeInfo node = range.node();
            reply.array(4);
            reply.bulk(node.host());
            reply.integer(node.port());
            reply.bulk(node.id());
            reply.map(0);
        }
    }

    /** CLUSTER SHARDS: one shard per master, its ranges flattened, and its one node (no replicas yet). */
    private void shards(CommandContext ctx) {
        Reply reply = ctx.reply();
        List<ClusterNodeInfo> masters = state.topology().nodes();
        reply.array(masters.size());
        for (ClusterNodeInfo node : masters) {
            reply.map(2);
            reply.bulk("slots");
            reply.array(node.slots().size() * 2);
            for (ClusterNodeInfo.SlotRange range : node.slots()) {
                reply.integer(range.first());
                reply.integer(range.last());
            }
            reply.bulk("nodes");
            reply.array(1);
            reply.map(7);
            reply.bulk("id");
            reply.bulk(node.id());
            reply.bulk("port");
            reply.integer(node.port());
            reply.bulk("ip");
            reply.bulk(node.host());
            reply.bulk("endpoint");
            reply.bulk(node.host());
            reply.bulk("role");
            reply.bulk("master");
            reply.bulk("replication-offset");
            reply.integer(0);
            reply.bulk("health");
            reply.bulk("online");
        }
    }

    /** CLUSTER LINKS: an outbound and an inbound link with every other node, made when the cluster was. */
    private void links(CommandContext ctx) {
        Reply reply = ctx.reply();
        List<ClusterNodeInfo> others = state.topology().nodes().stream().filter(n -> n != state.myself()).toList();
        reply.array(others.size() * 2);
        for (ClusterNodeInfo node : others) {
            for (String direction : new String[] {"to", "from"}) {
                reply.map(6);
                reply.bulk("direction");
                reply.bulk(direction);
                reply.bulk("node");
                reply.bulk(node.id());
                reply.bulk("create-time");
                reply.integer(state.topology().createdAtMillis());
                reply.bulk("events");
                reply.bulk("r");
                reply.bulk("send-buffer-allocated");
                reply.integer(0);
                reply.bulk("send-buffer-used");
                reply.integer(0);
            }
        }
    }

    /** O(1): the node keeps its keys by slot. */
    private void countKeysInSlot(CommandContext ctx) {
        long slot = ctx.longArg(2);
        if (slot < 0 || slot >= KeyHashSlot.SLOTS) {
            throw new RedisError("ERR Invalid slot");
        }
        ctx.reply().integer(state.slotIndex().count((int) slot));
    }

    /** O(count). */
    private void getKeysInSlot(CommandContext ctx) {
        long slot = ctx.longArg(2);
        long count = ctx.longArg(3);
        if (count < 0 || slot < 0 || slot >= KeyHashSlot.SLOTS) {
            throw new RedisError("ERR Invalid slot or number of keys");
        }
        List<Bytes> keys = state.slotIndex().keys((int) slot, (int) Math.min(count, Integer.MAX_VALUE));
        ctx.reply().array(keys.size());
        for (Bytes key : keys) {
            ctx.reply().bulk(key.bytes());
        }
    }

    /** CLUSTER REPLICAS / SLAVES: the replicas of a master, as CLUSTER NODES lines (none yet: masters only). */
    private void replicas(CommandContext ctx) {
        String id = ctx.text(2);
        if (state.topology().node(id) == null) {
            throw new RedisError("ERR Unknown node " + id);
        }
        ctx.reply().array(0);
    }

    /** A range of slots and the node serving it. */
    private record Served(ClusterNodeInfo.SlotRange range, ClusterNodeInfo node) {
        static List<Served> inSlotOrder(ClusterTopology topology) {
            return topology.nodes().stream()
                    .flatMap(node -> node.slots().stream().map(range -> new Served(range, node)))
                    .sorted(java.util.Comparator.comparingInt(s -> s.range().first()))
                    .toList();
        }
    }
}
