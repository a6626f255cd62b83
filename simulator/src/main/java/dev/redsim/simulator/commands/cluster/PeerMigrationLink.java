package dev.redsim.simulator.commands.cluster;

import dev.redsim.simulator.cluster.ClusterPeer;

import java.util.ArrayList;
import java.util.List;

/**
 * MIGRATE to another node of the same simulated cluster: its commands run on the target at once, on this thread,
 * through the target's own call path (decision 0016). A target that cannot answer now (itself, or a paused node) is
 * what a socket would see after the timeout: nothing to read.
 */
final class PeerMigrationLink implements MigrationLink {
    private final ClusterPeer.Client client;

    PeerMigrationLink(ClusterPeer peer) {
        this.client = peer == null ? null : peer.connect();
    }

    @Override
    public Replies exchange(List<byte[][]> commands) {
        List<String> lines = new ArrayList<>();
        if (client == null) {
            return Replies.failed(lines, new Failure(Failure.READING, true));
        }
        for (byte[][] command : commands) {
            String line = client.call(command);
            if (line == null) {
                return Replies.failed(lines, new Failure(Failure.READING, true));
            }
            lines.add(line);
        }
        return Replies.of(lines);
    }

    @Override
    public void close() {
        // the target's client has no socket and is registered nowhere: nothing to release
    }
}
