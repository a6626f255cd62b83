package dev.redsim.simulator.engine;

import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.server.ClientSubscriptions;
import dev.redsim.simulator.util.GlobMatcher;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The server side of pub/sub (pubsub.c): who listens to which channel, pattern and shard channel, and delivery
 * of messages into the subscribers' reply buffers. Subscribers are kept in subscription order, so a message
 * reaches them in the order Redis's lists of clients give.
 */
public final class PubSub {
    private static final byte[] MESSAGE = bytes("message");
    private static final byte[] PMESSAGE = bytes("pmessage");
    private static final byte[] SMESSAGE = bytes("smessage");

    /** A family of subscriptions: plain channels, or shard channels (which patterns never match). */
    public enum Kind {
        CHANNEL("subscribe", "unsubscribe", ClientSubscriptions::channels),
        SHARD("ssubscribe", "sunsubscribe", ClientSubscriptions::shardChannels),
        PATTERN("psubscribe", "punsubscribe", ClientSubscriptions::patterns);

        private final byte[] subscribed;
        private final byte[] unsubscribed;
        private final Function<ClientSubscriptions, Set<Bytes>> ofClient;

        Kind(String subscribed, String unsubscribed, Function<ClientSubscriptions, Set<Bytes>> ofClient) {
            this.subscribed = bytes(subscribed);
            this.unsubscribed = bytes(unsubscribed);
            this.ofClient = ofClient;
        }

        /** The count a confirmation carries: shard subscriptions are counted apart from the others. */
        int count(ClientSubscriptions s) {
            return this == SHARD ? s.shardChannels().size() : s.count();
        }
    }

    private final Engine engine;
    private final Map<Bytes, LinkedHashSet<ClientConnection>> channels = new HashMap<>();
    private final Map<Bytes, LinkedHashSet<ClientConnection>> shardChannels = new HashMap<>();
    /** Linked: a message matching several patterns is delivered in the order the patterns first appeared. */
    private final Map<Bytes, LinkedHashSet<ClientConnection>> patterns = new LinkedHashMap<>();

    PubSub(Engine engine) {
        this.engine = engine;
    }

    private Map<Bytes, LinkedHashSet<ClientConnection>> registry(Kind kind) {
        return switch (kind) {
            case CHANNEL -> channels;
            case SHARD -> shardChannels;
            case PATTERN -> patterns;
        };
    }

    // ---- subscribing ----

    /** Subscribes (if not yet) and confirms, as SUBSCRIBE / SSUBSCRIBE / PSUBSCRIBE do for each argument. */
    public void subscribe(ClientConnection client, Kind kind, Bytes name) {
        if (kind.ofClient.apply(client.subscriptions()).add(name)) {
            registry(kind).computeIfAbsent(name, n -> new LinkedHashSet<>()).add(client);
        }
        confirm(client, kind.subscribed, name, kind.count(client.subscriptions()));
    }

    /** Unsubscribes (if subscribed) and confirms when asked to. */
    public void unsubscribe(ClientConnection client, Kind kind, Bytes name, boolean confirm) {
        if (kind.ofClient.apply(client.subscriptions()).remove(name)) {
            Map<Bytes, LinkedHashSet<ClientConnection>> registry = registry(kind);
            LinkedHashSet<ClientConnection> listeners = registry.get(name);
            listeners.remove(client);
            if (listeners.isEmpty()) {
                registry.remove(name); // forgotten channels cost nothing, as in Redis
            }
        }
        if (confirm) {
            confirm(client, kind.unsubscribed, name, kind.count(client.subscriptions()));
        }
    }

    /**
     * A bare UNSUBSCRIBE / SUNSUBSCRIBE / PUNSUBSCRIBE: leaves everything of that kind, one confirmation each, or
     * one confirmation with a null name when there was nothing to leave.
     */
    public void unsubscribeAll(ClientConnection client, Kind kind, boolean confirm) {
        Set<Bytes> names = kind.ofClient.apply(client.subscriptions());
        if (names.isEmpty()) {
            if (confirm) {
                confirm(client, kind.unsubscribed, null, kind.count(client.subscriptions()));
            }
            return;
        }
        for (Bytes name : new ArrayList<>(names)) {
            unsubscribe(client, kind, name, confirm);
        }
    }

    /**
     * removeChannelsInSlot, for every slot this node stopped serving in one topology change: the shard channels of
     * those slots, slot by slot and in byte order within a slot (Redis walks its slot-to-channel radix tree), lose
     * every subscriber, each told by a sunsubscribe as SUNSUBSCRIBE would tell it. O(shard channels) per change, and
     * nothing when no client holds a shard subscription.
     */
    public void removeShardChannels(java.util.function.ToIntFunction<byte[]> slotOf,
                                    java.util.function.IntPredicate lostSlot) {
        if (shardChannels.isEmpty()) {
            return;
        }
        List<Bytes> lost = new ArrayList<>();
        for (Bytes channel : shardChannels.keySet()) {
            if (lostSlot.test(slotOf.applyAsInt(channel.bytes()))) {
                lost.add(channel);
            }
        }
        lost.sort(java.util.Comparator.<Bytes>comparingInt(c -> slotOf.applyAsInt(c.bytes()))
                .thenComparing(java.util.Comparator.naturalOrder()));
        for (Bytes channel : lost) {
            for (ClientConnection client : new ArrayList<>(shardChannels.get(channel))) {
                unsubscribe(client, Kind.SHARD, channel, true);
                engine.markPendingOutput(client);
            }
        }
    }

    /** Drops every subscription of a connection silently (RESET, disconnect). */
    public void forget(ClientConnection client) {
        if (!client.subscriptions().active()) {
            return;
        }
        for (Kind kind : Kind.values()) {
            unsubscribeAll(client, kind, false);
        }
    }

    private static void confirm(ClientConnection client, byte[] what, Bytes name, int count) {
        Reply r = client.reply();
        boolean replies = startPush(r);
        r.push(3);
        r.bulk(what);
        if (name == null) {
            r.nullBulk();
        } else {
            r.bulk(name.bytes());
        }
        r.integer(count);
        r.enabled(replies);
    }

    /**
     * Pushed frames (confirmations and messages) reach the client even under CLIENT REPLY OFF / SKIP, as Redis
     * 7.0.15's CLIENT_PUSHING makes them; returns whether replies were on, for the caller to restore.
     */
    private static boolean startPush(Reply r) {
        boolean enabled = r.enabled();
        r.enabled(true);
        return enabled;
    }

    // ---- publishing ----

    /** PUBLISH: delivers to the channel's subscribers, then to matching patterns; returns the receivers. */
    public int publish(byte[] channel, byte[] message) {
        int receivers = deliver(channels.get(Bytes.wrap(channel)), MESSAGE, channel, message);
        if (patterns.isEmpty()) {
            return receivers;
        }
        for (Map.Entry<Bytes, LinkedHashSet<ClientConnection>> e : patterns.entrySet()) {
            byte[] pattern = e.getKey().bytes();
            if (!GlobMatcher.matches(pattern, channel, false)) {
                continue;
            }
            for (ClientConnection client : e.getValue()) {
                Reply r = client.reply();
                boolean replies = startPush(r);
                r.push(4);
                r.bulk(PMESSAGE);
                r.bulk(pattern);
                r.bulk(channel);
                r.bulk(message);
                r.enabled(replies);
                engine.markPendingOutput(client);
                receivers++;
            }
        }
        return receivers;
    }

    /** SPUBLISH: shard channels only, no patterns. */
    public int publishShard(byte[] channel, byte[] message) {
        return deliver(shardChannels.get(Bytes.wrap(channel)), SMESSAGE, channel, message);
    }

    private int deliver(Set<ClientConnection> listeners, byte[] type, byte[] channel, byte[] message) {
        if (listeners == null) {
            return 0;
        }
        for (ClientConnection client : listeners) {
            Reply r = client.reply();
            boolean replies = startPush(r);
            r.push(3);
            r.bulk(type);
            r.bulk(channel);
            r.bulk(message);
            r.enabled(replies);
            engine.markPendingOutput(client);
        }
        return listeners.size();
    }

    /** True when anyone listens at all: keyspace notifications skip building channel names otherwise. */
    public boolean hasListeners() {
        return !channels.isEmpty() || !patterns.isEmpty();
    }

    // ---- introspection (PUBSUB) ----

    /** Active channels (or shard channels) matching a pattern, or all when the pattern is null. */
    public List<byte[]> activeChannels(Kind kind, byte[] pattern) {
        List<byte[]> result = new ArrayList<>();
        for (Bytes name : registry(kind).keySet()) {
            if (pattern == null || GlobMatcher.matches(pattern, name.bytes(), false)) {
                result.add(name.bytes());
            }
        }
        return result;
    }

    /** Subscribers of one channel or shard channel, not counting pattern subscribers. */
    public int subscriberCount(Kind kind, byte[] channel) {
        Set<ClientConnection> listeners = registry(kind).get(Bytes.wrap(channel));
        return listeners == null ? 0 : listeners.size();
    }

    /** Channels, shard channels or distinct patterns with at least one subscriber (INFO's pubsub_* fields). */
    public int activeCount(Kind kind) {
        return registry(kind).size();
    }

    /** PUBSUB NUMPAT: distinct patterns with at least one subscriber. */
    public int patternCount() {
        return patterns.size();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
