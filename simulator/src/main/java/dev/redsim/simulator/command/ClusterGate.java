package dev.redsim.simulator.command;

import dev.redsim.simulator.server.ClientConnection;

import java.util.List;

/**
 * A cluster node's check of where a call's keys live (Redis's getNodeByQuery), which the command processor asks
 * before it runs or queues a command with keys (and before EXEC, with the keys of every queued command). Implemented
 * by the cluster room; a standalone server has none.
 */
public interface ClusterGate {
    /** getNodeByQuery's CLUSTER_REDIR_DOWN_STATE. */
    String CLUSTER_DOWN = "CLUSTERDOWN The cluster is down";
    /** CLUSTER_REDIR_DOWN_RO_STATE: a write while the cluster is down and cluster-allow-reads-when-down is yes. */
    String CLUSTER_DOWN_READ_ONLY = "CLUSTERDOWN The cluster is down and only accepts read commands";

    /**
     * Null when this node serves the keys (or there are none), otherwise the refusal to answer in the command's place
     * ("MOVED slot host:port", "CROSSSLOT ...").
     *
     * @param keys     the keys of the call, in argument order (for EXEC: of every queued command, in order)
     * @param readOnly whether the call only reads (a replica may then serve it to a READONLY client)
     */
    String refusal(ClientConnection client, List<byte[]> keys, boolean readOnly);

    /**
     * As {@link #refusal(ClientConnection, List, boolean)}, knowing what a slot being migrated needs to know of the
     * command: whether it is flagged ASKING itself (RESTORE-ASKING: Redis's CMD_ASKING) and whether it is MIGRATE
     * (which runs on the node it is sent to while the slot is open).
     */
    default String refusal(ClientConnection client, List<byte[]> keys, boolean readOnly, boolean askingCommand,
                           boolean migrate) {
        return refusal(client, keys, readOnly);
    }

    /**
     * As the five-argument form, knowing whether the command is a pub/sub command (its shard channels stand for the
     * keys): a cluster replica serves those for its master's slots even to a client that did not send READONLY.
     */
    default String refusal(ClientConnection client, List<byte[]> keys, boolean readOnly, boolean askingCommand,
                           boolean migrate, boolean pubSub) {
        return refusal(client, keys, readOnly, askingCommand, migrate);
    }
}
