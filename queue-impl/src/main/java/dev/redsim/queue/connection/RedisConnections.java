package dev.redsim.queue.connection;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisClusterCRC16;

import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/**
 * Where a queue gets a connection for one transition: from a {@link JedisPool} or a {@link JedisPooled} (one server),
 * or from a {@link JedisCluster} (the node serving the slot of the queue's keys). A transition of a queue runs
 * WATCH/MULTI, scripts and blocking pops on one connection, which on a cluster must be the one to the node that
 * holds every key of the queue; that is why the queue's keys share a hash tag (decision 0019) and why a connection is
 * asked for by key. Closing the {@link Jedis} returned gives the connection back to the pool it came from.
 */
public abstract class RedisConnections {
    RedisConnections() {
    }

    /** Connections of a pool for one server (the form every queue took before clusters). */
    public static RedisConnections of(JedisPool pool) {
        return new OneServer() {
            @Override
            public Jedis forKey(byte[] key) {
                return pool.getResource();
            }
        };
    }

    /**
     * Connections of a Jedis 5 client: a {@link JedisCluster} (by slot) or a {@link JedisPooled} (one server). Other
     * kinds of UnifiedJedis (sharding, multi-cluster failover) keep their connections to themselves.
     */
    public static RedisConnections of(UnifiedJedis client) {
        if (client instanceof JedisCluster cluster) {
            return new Cluster(cluster);
        }
        if (client instanceof JedisPooled pooled) {
            return new OneServer() {
                @Override
                public Jedis forKey(byte[] key) {
                    return new Jedis(pooled.getPool().getResource());
                }
            };
        }
        throw new IllegalArgumentException("a queue needs a JedisPool, a JedisPooled or a JedisCluster, not a "
                + client.getClass().getName());
    }

    /** A connection to the server that holds {@code key} (any for one server); close it to give it back. */
    public abstract Jedis forKey(byte[] key);

    public Jedis forKey(String key) {
        return forKey(key.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Runs one transition on a connection to the server of {@code key}, again while the cluster refuses it because the
     * key's slot is moving ({@link SlotMoves}): after the slot has moved (MOVED, or a script touching a key no longer
     * served here) the client's slot map is renewed and the transition runs again at once; while it is migrating (ASK,
     * TRYAGAIN, a script's probe refused) it waits, with a backoff growing to {@link SlotMoves#MAX_PAUSE_MILLIS}, for the migration to end, for at most
     * {@link SlotMoves#BOUND_MILLIS} in all; then the last refusal is thrown. A refusal comes before anything is
     * written (a command or a transaction refused, or a script's probe; see decision 0023), so running the transition
     * again is safe. On one server nothing is ever refused this way and the transition runs once.
     */
    public <T> T transition(byte[] key, Function<Jedis, T> body) {
        long deadline = System.nanoTime() + SlotMoves.BOUND_MILLIS * 1_000_000L;
        long pause = 1;
        while (true) {
            try (Jedis jedis = forKey(key)) {
                return body.apply(jedis);
            } catch (RuntimeException e) {
                SlotMoves.Refusal refusal = clustered() ? SlotMoves.classify(e) : SlotMoves.Refusal.NONE;
                if (refusal == SlotMoves.Refusal.NONE || System.nanoTime() > deadline) {
                    throw e;
                }
                // renewed after every refusal: a transaction aborted or a script stopped can hide a MOVED
                renewSlotOf(key);
                if (refusal != SlotMoves.Refusal.MOVED) {
                    SlotMoves.pause(pause);
                    pause = Math.min(SlotMoves.MAX_PAUSE_MILLIS, pause * 2);
                }
            }
        }
    }

    public <T> T transition(String key, Function<Jedis, T> body) {
        return transition(key.getBytes(StandardCharsets.UTF_8), body);
    }

    /** Makes the client learn where {@code key}'s slot lives now (one server: nothing to learn). */
    void renewSlotOf(byte[] key) {
    }

    /** Whether keys of different slots may live on different servers (a cluster). */
    public abstract boolean clustered();

    /**
     * Refuses, on a cluster, key names whose common part carries no hash tag: the queue's keys would spread over
     * slots, and its transitions would fail with CROSSSLOT (or, inside a script, touch keys of another node).
     *
     * @param what    what the name is, for the message ("Conveyor key prefix", "thoonk feed name")
     * @param name    the part every key of the queue contains
     */
    public void requireHashTag(String what, String name) {
        if (clustered() && HashTag.of(name) == null) {
            throw new IllegalArgumentException(what + " '" + name + "' has no hash tag: on a Redis Cluster every key"
                    + " of one queue must share a slot, e.g. '{" + (name.isEmpty() ? "jobs" : name) + "}'");
        }
    }

    private abstract static class OneServer extends RedisConnections {
        @Override
        public boolean clustered() {
            return false;
        }
    }

    /** A cluster: a connection from the pool of the node the client believes serves the key's slot. */
    private static final class Cluster extends RedisConnections {
        private final JedisCluster cluster;

        Cluster(JedisCluster cluster) {
            this.cluster = cluster;
        }

        @Override
        public Jedis forKey(byte[] key) {
            return new Jedis(cluster.getConnectionFromSlot(JedisClusterCRC16.getSlot(key)));
        }

        /**
         * JedisCluster keeps its slot map to itself and renews it when one of its own commands meets MOVED: one
         * EXISTS of the key through it (a read of one key, O(1)) renews the map when the slot has moved, and costs
         * one round trip when it has not.
         */
        @Override
        void renewSlotOf(byte[] key) {
            cluster.exists(key);
        }

        @Override
        public boolean clustered() {
            return true;
        }
    }
}
