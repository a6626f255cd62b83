package dev.redsim.queue.thoonk;

import dev.redsim.queue.connection.RedisConnections;
import redis.clients.jedis.Jedis;

import java.util.UUID;
import java.util.function.Function;

/**
 * Feed administration: create, delete and configure, each with its event carrying this instance's uuid (so an
 * instance can ignore its own events).
 *
 * <p>Over one connection ({@link #Feeds(Jedis)}) Delete Feed is the contract's one transaction on the registry
 * ({@code feeds}) and the feed's keys. Over {@link RedisConnections} on a Redis Cluster those are in different slots
 * (the registry is one global key, the feed's keys share the feed name's hash tag), so Delete Feed is two steps:
 * the feed's keys go (one DEL, atomic, on the feed's node), then the registry entry (SREM, with the delfeed event on
 * the registry's node, sent only by the caller whose SREM removed it). A crash between the two leaves a listed feed
 * without keys, which is what a feed just created looks like: deleting it again finishes the job (decision 0019).
 */
public final class Feeds {
    /** Runs a call on a connection to the server holding a key; one connection for every key on one server. */
    private interface Access {
        <T> T on(String key, Function<Jedis, T> call);
    }

    private final Access access;
    private final boolean clustered;
    private final String instance;

    public Feeds(Jedis jedis) {
        this(jedis, UUID.randomUUID().toString());
    }

    public Feeds(Jedis jedis, String instance) {
        this.access = new Access() {
            @Override
            public <T> T on(String key, Function<Jedis, T> call) {
                return call.apply(jedis);
            }
        };
        this.clustered = false;
        this.instance = instance;
    }

    /** Borrows a connection for each call; on a cluster, from the node of the key the call touches. */
    public Feeds(RedisConnections connections, String instance) {
        this.access = new Access() {
            @Override
            public <T> T on(String key, Function<Jedis, T> call) {
                try (Jedis jedis = connections.forKey(key)) {
                    return call.apply(jedis);
                }
            }
        };
        this.clustered = connections.clustered();
        this.instance = instance;
    }

    public String instance() {
        return instance;
    }

    /** @return false when the feed already existed (the contract aborts then, without an event) */
    public boolean create(String feed) {
        return access.on(ThoonkKeys.FEEDS, jedis -> {
            if (jedis.sadd(ThoonkKeys.FEEDS, feed) == 0) {
                return false;
            }
            jedis.publish(ThoonkKeys.NEWFEED, ThoonkKeys.payload(feed, instance));
            return true;
        });
    }

    public boolean exists(String feed) {
        return access.on(ThoonkKeys.FEEDS, jedis -> jedis.sismember(ThoonkKeys.FEEDS, feed));
    }

    /**
     * Removes the feed and every key it owns, with delfeed: atomically on one server, in two steps on a cluster
     * (see the class comment). @return false when there was no feed
     */
    public boolean delete(String feed) {
        ThoonkKeys keys = new ThoonkKeys(feed);
        if (clustered) {
            if (dev.redsim.queue.connection.HashTag.of(feed) == null) {
                throw new IllegalArgumentException("thoonk feed name '" + feed + "' has no hash tag: on a Redis Cluster"
                        + " its keys would not share a slot, e.g. '{" + feed + "}'");
            }
            if (!exists(feed)) {
                return false;
            }
            access.on(keys.config(), jedis -> jedis.del(keys.all()));
            return access.on(ThoonkKeys.FEEDS, jedis -> {
                if (jedis.srem(ThoonkKeys.FEEDS, feed) == 0) {
                    return false; // another caller deleted it meanwhile and sent the event
                }
                jedis.publish(ThoonkKeys.DELFEED, ThoonkKeys.payload(feed, instance));
                return true;
            });
        }
        return access.on(ThoonkKeys.FEEDS, jedis -> Watched.run(jedis, new String[] {ThoonkKeys.FEEDS},
                j -> j.sismember(ThoonkKeys.FEEDS, feed), tx -> {
                    tx.srem(ThoonkKeys.FEEDS, feed);
                    tx.del(keys.all());
                    tx.publish(ThoonkKeys.DELFEED, ThoonkKeys.payload(feed, instance));
                }) != null);
    }

    public void setConfig(String feed, String name, String value) {
        ThoonkKeys keys = new ThoonkKeys(feed);
        access.on(keys.config(), jedis -> jedis.hset(keys.config(), name, value));
        access.on(ThoonkKeys.FEEDS, jedis -> jedis.publish(ThoonkKeys.CONFFEED, ThoonkKeys.payload(feed, instance)));
    }

    public String getConfig(String feed, String name) {
        ThoonkKeys keys = new ThoonkKeys(feed);
        return access.on(keys.config(), jedis -> jedis.hget(keys.config(), name));
    }
}
