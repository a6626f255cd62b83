package dev.redsim.queue.worker;

import dev.redsim.queue.connection.RedisConnections;
import redis.clients.jedis.BinaryJedisPubSub;
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
 * queue's hash tag, so that is the node whose scripts and transactions publish on it (decision 0019).
 */
public final class WakeListener {
    private final RedisConnections connections;
    private final byte[] channel;
    private final WakeSignal wake;
    private final long retryMillis;
    private final Object lock = new Object();
    private boolean stopped; // guarded by lock
    private BinaryJedisPubSub confirmed; // guarded by lock: the subscription the server has answered
    private final Thread thread;

    private WakeListener(RedisConnections connections, byte[] channel, WakeSignal wake, long retryMillis,
                         String name) {
        this.connections = connections;
        this.channel = channel.clone();
        this.wake = wake;
        this.retryMillis = retryMillis;
        this.thread = WorkerThreads.daemon(this::listen, name);
    }

    /** Starts listening on {@code channel}; when Redis is unreachable, tries again every {@code retryMillis}. */
    public static WakeListener start(JedisPool pool, byte[] channel, WakeSignal wake, long retryMillis,
                                     String threadName) {
        return start(RedisConnections.of(pool), channel, wake, retryMillis, threadName);
    }

    /** As {@link #start(JedisPool, byte[], WakeSignal, long, String)}, on the server serving the channel's slot. */
    public static WakeListener start(RedisConnections connections, byte[] channel, WakeSignal wake, long retryMillis,
                                     String threadName) {
        WakeListener listener = new WakeListener(connections, channel, wake, retryMillis, threadName);
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
                    jedis.subscribe(new Subscription(), channel);
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
                    confirmed.unsubscribe();
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
                    confirmed = this;
                }
            }
        }

        @Override
        public void onMessage(byte[] channel, byte[] message) {
            wake.wakeAll();
        }
    }
}
