package dev.redsim.simulator.server;

import dev.redsim.simulator.keyspace.Bytes;

import java.util.LinkedHashSet;

/**
 * What one connection listens to (Redis's c->pubsub_channels, c->pubsub_patterns, c->pubsub_shard_channels).
 * Kept in subscription order, which is also the order of the confirmations of a bare UNSUBSCRIBE.
 */
public final class ClientSubscriptions {
    private final LinkedHashSet<Bytes> channels = new LinkedHashSet<>();
    private final LinkedHashSet<Bytes> patterns = new LinkedHashSet<>();
    private final LinkedHashSet<Bytes> shardChannels = new LinkedHashSet<>();

    public LinkedHashSet<Bytes> channels() {
        return channels;
    }

    public LinkedHashSet<Bytes> patterns() {
        return patterns;
    }

    public LinkedHashSet<Bytes> shardChannels() {
        return shardChannels;
    }

    /** The count SUBSCRIBE and PSUBSCRIBE confirmations carry: channels plus patterns. */
    public int count() {
        return channels.size() + patterns.size();
    }

    /** True while the connection is in pub/sub mode (Redis's CLIENT_PUBSUB flag). */
    public boolean active() {
        return !channels.isEmpty() || !patterns.isEmpty() || !shardChannels.isEmpty();
    }
}
