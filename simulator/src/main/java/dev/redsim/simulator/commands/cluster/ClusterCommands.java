package dev.redsim.simulator.commands.cluster;

import dev.redsim.simulator.cluster.ClusterNodeInfo;
import dev.redsim.simulator.cluster.ClusterState;
import dev.redsim.simulator.cluster.ClusterTopology;
import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandHandler;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.commands.common.HelpText;
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
        t.handler("readonly", enabled(ctx -> {
            ctx.client().readOnlyReplicaReads(true);
            ctx.reply().ok();
        }));
        t.handler("readwrite", enabled(ctx -> {
            ctx.client().readOnlyReplicaReads(false);
            ctx.reply().ok();
        }));
        t.handler("cluster|failover", enabled(this::failover));
        t.handler("cluster|meet", enabled(this::meet));
        t.handler("cluster|forget", enabled(this::forget));
        t.handler("cluster|count-failure-reports", enabled(this::countFailureReports));
        // no nodes.conf: the topology lives in memory only, so there is nothing to save and nothing can fail
        t.handler("cluster|saveconfig", enabled(ctx -> ctx.reply().ok()));
        t.handler("cluster|help", enabled(this::help));
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

    /**
     * CLUSTER INFO: the state (this node's, by its own cluster-require-full-coverage), slot counts by their node's
     * health, and epochs; no bus, so no bus message counts but the two totals.
     */
    private void info(CommandContext ctx) {
        ClusterTopology topology = state.topology();
        int assigned = topology.assignedSlots();
        int pfail = topology.slotsServedBy(ClusterNodeInfo.Health.PFAIL);
        int fail = topology.slotsServedBy(ClusterNodeInfo.Health.FAIL);
        String text = "cluster_state:" + (state.stateOk() ? "ok" : "fail") + "\r\n"
                + "cluster_slots_assigned:" + assigned + "\r\n"
                + "cluster_slots_ok:" + (assigned - pfail - fail) + "\r\n"
                + "cluster_slots_pfail:" + pfail + "\r\n"
                + "cluster_slots_fail:" + fail + "\r\n"
                + "cluster_known_nodes:" + topology.nodes().size() + "\r\n"
                + "cluster_size:" + topology.size() + "\r\n"
                + "cluster_current_epoch:" + topology.currentEpoch() + "\r\n"
                + "cluster_my_epoch:" + state.myself().shownEpoch() + "\r\n"
                + "cluster_stats_messages_sent:0\r\n"
                + "cluster_stats_messages_received:0\r\n"
                + "total_cluster_links_buffer_limit_exceeded:0\r\n";
        ctx.reply().verbatim(text);
    }

    /**
     * CLUSTER SLOTS: every range in slot order, with its master then its replicas (ip, port, id, no extra networking
     * metadata); a replica whose replication offset is still 0 is left out, as Redis's isReplicaAvailable does.
     */
    private void slots(CommandContext ctx) {
        Reply reply = ctx.reply();
        List<Served> served = Served.inSlotOrder(state.topology());
        reply.array(served.size());
        for (Served range : served) {
            List<ClusterNodeInfo> replicas = state.topology().replicasOf(range.node()).stream()
                    .filter(r -> r.replicationOffset() != 0 && r.health() != ClusterNodeInfo.Health.FAIL).toList();
            reply.array(3 + replicas.size());
            reply.integer(range.range().first());
            reply.integer(range.range().last());
            slotNode(reply, range.node());
            replicas.forEach(r -> slotNode(reply, r));
        }
    }

    private static void slotNode(Reply reply, ClusterNodeInfo node) {
        reply.array(4);
        reply.bulk(node.host());
        reply.integer(node.port());
        reply.bulk(node.id());
        reply.map(0);
    }

    /** CLUSTER SHARDS: one shard per master, its ranges flattened, its master and its replicas. */
    private void shards(CommandContext ctx) {
        Reply reply = ctx.reply();
        List<ClusterNodeInfo> masters = state.topology().masters();
        reply.array(masters.size());
        for (ClusterNodeInfo node : masters) {
            reply.map(2);
            reply.bulk("slots");
            reply.array(node.slots().size() * 2);
            for (ClusterNodeInfo.SlotRange range : node.slots()) {
                reply.integer(range.first());
                reply.integer(range.last());
            }
            List<ClusterNodeInfo> replicas = state.topology().replicasOf(node);
            reply.bulk("nodes");
            reply.array(1 + replicas.size());
            shardNode(reply, node);
            replicas.forEach(r -> shardNode(reply, r));
        }
    }

    /** A node of a shard: a replica that has not received a byte yet is "loading", as clusterGetReplicaHealth says. */
    private static void shardNode(Reply reply, ClusterNodeInfo node) {
        long offset = node.replicationOffset();
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
        reply.bulk(node.isReplica() ? "replica" : "master");
        reply.bulk("replication-offset");
        reply.integer(offset);
        reply.bulk("health");
        reply.bulk(node.health() == ClusterNodeInfo.Health.FAIL ? "fail"
                : node.isReplica() && offset == 0 ? "loading" : "online");
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

    /** CLUSTER REPLICAS / SLAVES: the replicas of a master, each as its CLUSTER NODES line. */
    private void replicas(CommandContext ctx) {
        String id = ctx.text(2);
        ClusterNodeInfo node = state.topology().node(id);
        if (node == null) {
            throw new RedisError("ERR Unknown node " + id);
        }
        if (node.isReplica()) {
            throw new RedisError("ERR The specified node is not a master");
        }
        List<ClusterNodeInfo> replicas = state.topology().replicasOf(node);
        ctx.reply().array(replicas.size());
        for (ClusterNodeInfo replica : replicas) {
            ctx.reply().bulk(ClusterNodesText.line(state, replica, ctx.now()));
        }
    }

    /**
     * CLUSTER FAILOVER [FORCE|TAKEOVER] on a replica: +OK, then its master's place is its own. Redis answers first and
     * fails over in the next milliseconds (an election, or none for TAKEOVER); here every node sees the new roles
     * once the reply is written (decision 0022).
     */
    private void failover(CommandContext ctx) {
        if (ctx.argc() > 3) {
            throw new RedisError("ERR unknown subcommand or wrong number of arguments for '" + ctx.text(1)
                    + "'. Try CLUSTER HELP.");
        }
        boolean takeover = false;
        if (ctx.argc() == 3) {
            if (ctx.is(2, "takeover")) {
                takeover = true;
            } else if (!ctx.is(2, "force")) {
                throw new RedisError("ERR syntax error");
            }
        }
        if (!state.myself().isReplica()) {
            throw new RedisError("ERR You should send CLUSTER FAILOVER to a replica");
        }
        ClusterNodeInfo master = state.myself().master();
        if (ctx.argc() == 2 && (master.health() == ClusterNodeInfo.Health.FAIL || master.stopped())) {
            // without FORCE a replica needs its master's agreement: a master it cannot reach gives none
            throw new RedisError("ERR Master is down or failed, please use CLUSTER FAILOVER FORCE");
        }
        ctx.reply().ok();
        state.failover(!takeover);
    }

    /**
     * CLUSTER MEET ip port [bus-port]: Redis's checks and replies. A node of this cluster is met already (Redis's
     * handshake with it ends in the node it knows); any other address gets +OK as Redis gives it, but no node joins:
     * a simulated cluster's nodes are made with it (Redis would list a "handshake" node until the handshake times out).
     */
    private void meet(CommandContext ctx) {
        if (ctx.argc() != 4 && ctx.argc() != 5) {
            throw new RedisError("ERR unknown subcommand or wrong number of arguments for '" + ctx.text(1)
                    + "'. Try CLUSTER HELP.");
        }
        Long port = dev.redsim.simulator.keyspace.Numbers.parseLongStrict(ctx.arg(3));
        if (port == null) {
            throw new RedisError("ERR Invalid TCP base port specified: " + ctx.text(3));
        }
        long busPort = port + 10000; // CLUSTER_PORT_INCR
        if (ctx.argc() == 5) {
            Long given = dev.redsim.simulator.keyspace.Numbers.parseLongStrict(ctx.arg(4));
            if (given == null) {
                throw new RedisError("ERR Invalid TCP bus port specified: " + ctx.text(4));
            }
            busPort = given;
        }
        // clusterStartHandshake: an address inet_pton accepts and both ports within 1-65535
        if (!isIpLiteral(ctx.text(2)) || port <= 0 || port > 65535 || busPort <= 0 || busPort > 65535) {
            throw new RedisError("ERR Invalid node address specified: " + ctx.text(2) + ":" + ctx.text(3));
        }
        ctx.reply().ok();
    }

    /** What inet_pton takes: dotted-quad IPv4 (no leading zeros, each part up to 255) or an IPv6 literal. */
    private static boolean isIpLiteral(String address) {
        if (address.contains(":")) {
            if (!address.matches("[0-9A-Fa-f:.]+")) {
                return false;
            }
            try {
                return java.net.InetAddress.getByName(address) instanceof java.net.Inet6Address;
            } catch (java.net.UnknownHostException e) {
                return false;
            }
        }
        String[] parts = address.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String part : parts) {
            if (!part.matches("0|[1-9][0-9]{0,2}") || Integer.parseInt(part) > 255) {
                return false;
            }
        }
        return true;
    }

    /**
     * CLUSTER FORGET node-id: Redis's refusals (an unknown node, this node itself, its own master). Forgetting another
     * node is refused too, with a reason of the simulator's own: the simulated nodes share one view of the cluster, so
     * a node cannot drop a peer from its own view alone as a Redis node does for 60 seconds (decision 0028).
     */
    private void forget(CommandContext ctx) {
        String id = ctx.text(2);
        ClusterNodeInfo node = state.topology().node(id);
        if (node == null) {
            throw new RedisError("ERR Unknown node " + id);
        }
        if (node == state.myself()) {
            throw new RedisError("ERR I tried hard but I can't forget myself...");
        }
        if (state.myself().master() == node) {
            throw new RedisError("ERR Can't forget my master!");
        }
        throw new RedisError("ERR CLUSTER FORGET of another node is not supported by the simulated cluster: its nodes"
                + " share one view of the cluster");
    }

    /**
     * COUNT-FAILURE-REPORTS: how many other masters report the node as failing. Redis counts the reports gossip has
     * brought in the last two node timeouts; here every reachable master serving slots, other than this node and the
     * named one, reports a node this cluster sees as PFAIL or FAIL (what Redis's count settles to), none a healthy one.
     */
    private void countFailureReports(CommandContext ctx) {
        String id = ctx.text(2);
        ClusterNodeInfo node = state.topology().node(id);
        if (node == null) {
            throw new RedisError("ERR Unknown node " + id);
        }
        long reports = 0;
        if (node.health() != ClusterNodeInfo.Health.OK) {
            for (ClusterNodeInfo master : state.topology().masters()) {
                if (master != node && master != state.myself() && master.reachable() && !master.slots().isEmpty()) {
                    reports++;
                }
            }
        }
        ctx.reply().integer(reports);
    }

    private void help(CommandContext ctx) {
        HelpText.reply(ctx.reply(), "CLUSTER",
                "ADDSLOTS <slot> [<slot> ...]", "Serve the named slots from this node.",
                "ADDSLOTSRANGE <start slot> <end slot> [<start slot> <end slot> ...]",
                "Serve every slot of the ranges from this node.",
                "BUMPEPOCH", "Take a new config epoch if this node's is not the greatest or is shared.",
                "COUNT-FAILURE-REPORTS <node-id>", "How many masters report the node as failing.",
                "COUNTKEYSINSLOT <slot>", "Number of keys of this node in the slot.",
                "DELSLOTS <slot> [<slot> ...]", "Stop serving the named slots.",
                "DELSLOTSRANGE <start slot> <end slot> [<start slot> <end slot> ...]",
                "Stop serving every slot of the ranges.",
                "FAILOVER [FORCE|TAKEOVER]", "Make this replica its master's successor.",
                "FORGET <node-id>", "Drop a node from this node's view (only refusals here).",
                "GETKEYSINSLOT <slot> <count>", "Up to count key names of this node in the slot.",
                "FLUSHSLOTS", "Stop serving every slot of this node (its database must be empty).",
                "INFO", "State, slot counts and epochs of the cluster.",
                "KEYSLOT <key>", "The hash slot of the key.",
                "MEET <ip> <port> [<bus-port>]", "Check an address to join (no node joins a simulated cluster).",
                "MYID", "This node's ID.",
                "NODES", "Every node as this node sees it, one line each.",
                "REPLICAS <node-id>", "The replicas of a master, as NODES lines.",
                "SAVECONFIG", "Save the cluster configuration (kept in memory here).",
                "SET-CONFIG-EPOCH <epoch>", "Give a fresh node its config epoch.",
                "SETSLOT <slot> (IMPORTING <node-id>|MIGRATING <node-id>|STABLE|NODE <node-id>)",
                "Change a slot's migration state or owner.",
                "SHARDS", "Each shard's slot ranges and nodes.",
                "SLOTS", "Each slot range with its master and replicas.",
                "LINKS", "The bus links between this node and its peers.",
                "HELP", "Print this text.");
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
