package dev.redsim.queue.jq.master;

import dev.redsim.queue.jq.JqOptions;
import dev.redsim.queue.jq.http.HttpServer;
import dev.redsim.queue.jq.http.Router;
import dev.redsim.queue.time.RedisClock;
import dev.redsim.queue.connection.RedisConnections;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.JedisPoolConfig;

import java.net.URI;
import java.time.InstantSource;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The JQ master: the HTTP API (pushers, workers, web UI) over a {@link dev.redsim.queue.jq.JobQueue} in Redis,
 * plus upkeep every {@code tickMillis}: timeouts, due retries, expired results, old records. Several masters may
 * share one Redis: every transition is a Redis transaction.
 */
public final class JqMaster implements AutoCloseable {
    private final QueueAccess queue;
    private final Signal signal = new Signal();
    private final PushWorkers push;
    private final Router router;
    private final HttpServer server;
    private final ScheduledExecutorService upkeep;

    private JqMaster(RedisConnections connections, AutoCloseable owned, String bind, int port,
                     MasterSettings settings) {
        InstantSource clock = settings.clock() != null ? settings.clock()
                : RedisClock.over(connections, settings.keys().slotKey());
        this.queue = new QueueAccess(connections, owned, settings.keys(), clock, settings.options());
        this.push = new PushWorkers(queue, signal);
        this.router = new MasterApi(queue, signal, push, settings).router();
        this.server = HttpServer.start(bind, port,
                settings.apiToken() == null ? router : new TokenGuard(settings.apiToken(), router));
        this.upkeep = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "jq-upkeep");
            t.setDaemon(true);
            return t;
        });
        if (settings.tickMillis() > 0) {
            upkeep.scheduleWithFixedDelay(this::tick, settings.tickMillis(), settings.tickMillis(),
                    TimeUnit.MILLISECONDS);
        }
    }

    /** Starts a master on {@code bind:port} (0 = any free port) over the Redis at {@code redis}. */
    public static JqMaster start(URI redis, String bind, int port) {
        return start(redis, bind, port, MasterSettings.defaults());
    }

    public static JqMaster start(URI redis, String bind, int port, InstantSource clock, JqOptions options,
                                 long tickMillis) {
        return start(redis, bind, port, MasterSettings.defaults().withClock(clock, tickMillis).withOptions(options));
    }

    public static JqMaster start(URI redis, String bind, int port, MasterSettings settings) {
        JedisPoolConfig config = new JedisPoolConfig();
        config.setMaxTotal(128);
        config.setMaxIdle(128);
        // JedisPool reads user, password and database from the URI: redis://:secret@host:6379/0.
        JedisPool pool = new JedisPool(config, redis);
        return new JqMaster(RedisConnections.of(pool), pool, bind, port, settings);
    }

    /**
     * Starts a master over a client the caller owns and closes: a JedisCluster (the settings' key prefix must carry a
     * hash tag, e.g. {@code {jq}:}: the namespace then lives on the master of that slot) or a JedisPooled.
     */
    public static JqMaster start(UnifiedJedis client, String bind, int port, MasterSettings settings) {
        return new JqMaster(RedisConnections.of(client), null, bind, port, settings);
    }

    public int port() {
        return server.port();
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + port());
    }

    /** The route table, for the OpenAPI conformance test. */
    public Router router() {
        return router;
    }

    /** One round of upkeep (also run every tick): timeouts, due retries, expired results, trimming. */
    public void tick() {
        try {
            int changed = queue.with(q -> q.expireOverdue() + q.promoteDue());
            queue.with(q -> {
                q.sweep();
                return null;
            });
            if (changed > 0) {
                signal.fireAll();
            }
        } catch (RuntimeException e) {
            // Redis briefly unreachable: the next tick tries again; nothing is lost meanwhile.
        }
    }

    @Override
    public void close() {
        upkeep.shutdownNow();
        push.close();
        server.close();
        queue.close();
    }
}
