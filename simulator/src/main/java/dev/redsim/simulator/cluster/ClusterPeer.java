package dev.redsim.simulator.cluster;

/**
 * Another node of the same simulated cluster as a MIGRATE target: all nodes run on one thread, so instead of a socket
 * the source opens a client on the target itself and runs the target's commands (AUTH, SELECT, RESTORE-ASKING) through
 * the target's own call path, with its checks, errors, notifications and propagation (decision 0016).
 */
public interface ClusterPeer {
    /** A new client of the node, as a fresh connection would be (authenticated when its default user needs none). */
    Client connect();

    /**
     * Another node took {@code slot} over with a newer config epoch: this node, its former owner, deletes the keys it
     * still holds there (Redis's dirty slots, cleaned when the newer claim reaches it).
     */
    void lostSlot(int slot);

    /**
     * The node no longer serves the slots {@code slots} accepts, nor does its shard (DELSLOTS on it, a slot given to
     * another shard, its master failed over): the subscribers of their shard channels are unsubscribed, each told by
     * a sunsubscribe (removeChannelsInSlot).
     */
    void leftSlots(java.util.function.IntPredicate slots);

    interface Client {
        /**
         * Runs one command as this client and returns the first line of its reply without the line end ("+OK",
         * "-ERR ..."), or null when the node did not answer now (a paused node keeps the command for later).
         */
        String call(byte[]... args);
    }
}
