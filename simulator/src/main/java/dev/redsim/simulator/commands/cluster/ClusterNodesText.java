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
        line(out, state.myself(), true, nowMillis);
        for (ClusterNodeInfo node : state.topology().nodes()) {
            if (node != state.myself()) {
                line(out, node, false, nowMillis);
            }
        }
        return out.toString();
    }

    private static void line(StringBuilder out, ClusterNodeInfo node, boolean myself, long nowMillis) {
        out.append(node.id()).append(' ').append(node.host()).append(':').append(node.port()).append('@')
                .append(node.busPort()).append(' ').append(myself ? "myself,master" : "master").append(" - 0 ")
                // the last pong: no bus here, every node answers at once (Redis shows seconds for itself)
                .append(myself ? nowMillis / 1000 * 1000 : nowMillis).append(' ')
                .append(node.configEpoch()).append(" connected");
        for (ClusterNodeInfo.SlotRange range : node.slots()) {
            out.append(' ').append(range.first());
            if (range.last() != range.first()) {
                out.append('-').append(range.last());
            }
        }
        out.append('\n');
    }
}
