package dev.redsim.simulator.commands.cluster;

import dev.redsim.simulator.cluster.ClusterNodeInfo;
import dev.redsim.simulator.cluster.ClusterState;

/**
 * CLUSTER NODES's text (clusterGenNodesDescription): one line per node, this node first, each
 * "id ip:port@busport flags master ping-sent pong-received config-epoch link-state slots...".
 */
final class ClusterNodesText {
    private ClusterNodesText() {
    }

    static String of(ClusterState state, long nowMillis) {
        StringBuilder out = new StringBuilder();
        line(out, state, state.myself(), true, nowMillis);
        for (ClusterNodeInfo node : state.topology().nodes()) {
            if (node != state.myself()) {
                line(out, state, node, false, nowMillis);
            }
        }
        return out.toString();
    }

    /** One node's line without its end (CLUSTER REPLICAS answers these alone). */
    static String line(ClusterState state, ClusterNodeInfo node, long nowMillis) {
        StringBuilder out = new StringBuilder();
        line(out, state, node, node == state.myself(), nowMillis);
        return out.substring(0, out.length() - 1);
    }

    private static void line(StringBuilder out, ClusterState state, ClusterNodeInfo node, boolean myself,
                             long nowMillis) {
        String role = node.isReplica() ? "slave" : "master";
        String health = switch (node.health()) {
            case OK -> "";
            case PFAIL -> ",fail?";
            case FAIL -> ",fail";
        };
        String master = node.isReplica() ? node.master().id() : "-";
        // a stopped node: the ping sent when it stopped is still unanswered, its last pong came before that
        long pingSent = node.stopped() ? node.stoppedAtMillis() : 0;
        long pongReceived = node.stopped() ? node.stoppedAtMillis() : nowMillis;
        out.append(node.id()).append(' ').append(node.host()).append(':').append(node.port()).append('@')
                .append(node.busPort()).append(' ').append(myself ? "myself," : "").append(role).append(health)
                .append(' ').append(master).append(' ').append(pingSent).append(' ')
                // the last pong: no bus here, every node answers at once (Redis shows seconds for itself)
                .append(myself ? nowMillis / 1000 * 1000 : pongReceived).append(' ')
                .append(node.shownEpoch()).append(node.stopped() ? " disconnected" : " connected");
        for (ClusterNodeInfo.SlotRange range : node.slots()) {
            out.append(' ').append(range.first());
            if (range.last() != range.first()) {
                out.append('-').append(range.last());
            }
        }
        if (myself) {
            // only a node's own line shows the slots it is moving, and in slot order: migrating wins over importing
            java.util.TreeMap<Integer, String> open = new java.util.TreeMap<>();
            state.importingSlots().forEach((slot, from) -> open.put(slot, " [" + slot + "-<-" + from.id() + "]"));
            state.migratingSlots().forEach((slot, to) -> open.put(slot, " [" + slot + "->-" + to.id() + "]"));
            open.values().forEach(out::append);
        }
        out.append('\n');
    }
}
