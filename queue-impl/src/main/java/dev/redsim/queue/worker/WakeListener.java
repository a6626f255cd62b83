package dev.redsim.queue.worker;

import dev.redsim.queue.connection.RedisConnections;
import redis.clients.jedis.BinaryJedisPubSub;
import redis.clients.jedis.BinaryJedisShardedPubSub;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

/**
 * Keeps a runtime subscribed to its queue's wake channel (each message wakes the idle threads) and stops without
 * spoiling the pool it borrowed from.
 *
 * <p>Why this is more than a {@code subscribe} call: Jedis lets another thread {@code unsubscribe} once the
 * subscriber has taken the connection, even before its SUBSCRIBE went out. A stop landing there sent UNSUBSCRIBE
 * first; its reply (no channels left) ended the subscriber, which handed the connection back to the pool with the
 * SUBSCRIBE reply still unread and the server in subscribe mode, so the next borrower (typically a job's
 * completion, right after a stop) read a stray reply and failed. A stop landing a little earlier was refused
 * ("not subscribed") and left the listener subscribed for good. Here an unsubscribe is only ever sent once the
 * server has confirmed the subscription ({@code onSubscribe}); a stop before that is seen by {@code onSubscribe},
 * which unsubscribes itself. And the connection never goes back to the pool: it is dropped, because a connection
 * that was in subscribe mode is not one to share.
 *
 * <p>On a Redis Cluster the subscription goes to the node serving the channel's slot: the channel carries the
 * queue's hash tag, so that is the node whose scripts and transactions publish on it (decision 0019). A sharded
 * listener uses SSUBSCRIBE (for a channel published with SPUBLISH), the same way.
 */
public final class WakeListener {
    private final RedisConnections connections;
    private final byte[] channel;
    private final boolean sharded;
    private final WakeSignal wake;
    private final long retryMillis;
    private final Object lock = new Object();
    private boolean stopped; // guarded by lock
    private Runnable confirmed; // guarded by lock: unsubscribes the subscription the server has answered
    private final Thread thread;

    private WakeListener(RedisConnections connections, byte[] channel, boolean sharded, WakeSignal wake,
                         long retryMillis, String name) {
        this.connections = connections;
        this.channel = channel.clone();
        this.sharded = sharded;
        this.wake = wake;
        this.retryMillis = retryMillis;
        this.thread = WorkerThreads.daemon(this::listen, name);
    }

    /** Starts listening on {@code channel}; when Redis is unreachable, tries again every {@code retryMillis}. */
    public static WakeListener start(JedisPool pool, byte[] channel, WakeSignal wake, long retryMillis,
                                     String threadName) {
        return start(RedisConnections.of(pool), channel, false, wake, retryMillis, threadName);
    }

    /**
     * As {@link #start(JedisPool, byte[], WakeSignal, long, String)}, on the server serving the channel's slot;
     * {@code sharded}: the channel is a shard channel (SSUBSCRIBE).
     */
    public static WakeListener start(RedisConnections connections, byte[] channel, boolean sharded, WakeSignal wake,
                                     long retryMillis, String threadName) {
        WakeListener listener = new WakeListener(connections, channel, sharded, wake, retryMillis, threadName);
        listener.thread.start();
        return listener;
    }

    private boolean stopped() {
        synchronized (lock) {
            return stopped;
        }
    }

    private void listen() {
        while (!stopped()) {
            try (Jedis jedis = connections.forKey(channel)) {
                try {
                    if (sharded) {
                        jedis.getConnection().setTimeoutInfinite(); // as Jedis's own subscribe does
                        new ShardSubscription().proceed(jedis.getConnection(), channel);
                    } else {
                        jedis.subscribe(new Subscription(), channel);
                    }
                } finally {
                    jedis.getConnection().setBroken(); // closed by the pool, never lent again
                    synchronized (lock) {
                        confirmed = null;
                    }
                }
            } catch (RuntimeException e) {
                if (stopped()) {
                    return;
                }
                wake.await(retryMillis); // Redis unreachable: subscribe again later
            }
        }
    }

    /**
     * Ends the subscription (now if the server has answered it, otherwise as soon as it does). Does not wait: the
     * listener thread ends by itself after its last reply.
     */
    public void stop() {
        synchronized (lock) {
            stopped = true;
            if (confirmed != null) {
                try {
                    confirmed.run();
                } catch (RuntimeException e) {
                    // the connection broke meanwhile: the listener's subscribe ends with it
                }
            }
        }
    }

    private final class Subscription extends BinaryJedisPubSub {
        @Override
        public void onSubscribe(byte[] channel, int subscribedChannels) {
            synchronized (lock) {
                if (stopped) {
                    unsubscribe();
                } else {
                    confirmed = this::unsubscribe;
                }
            }
        }

        @Override
        public void onMessage(byte[] channel, byte[] message) {
            wake.wakeAll();
        }
    }

    /** The same for a shard channel. */
    private final class ShardSubscription extends BinaryJedisShardedPubSub {
        @Override
        public void onSSubscribe(byte[] channel, int subscribedChannels) {
            synchronized (lock) {
                if (stopped) {
                    sunsubscribe();
                } else {
                    confirmed = this::sunsubscribe;
                }
            }
        }

        @Override
        public void onSMessage(byte[] channel, byte[] message) {
            wake.wakeAll();
        }
    }
}
