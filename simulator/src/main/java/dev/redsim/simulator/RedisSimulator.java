package dev.redsim.simulator;

import dev.redsim.simulator.cluster.ClusterNodeInfo;
import dev.redsim.simulator.cluster.ClusterState;
import dev.redsim.simulator.cluster.ClusterTopology;
import dev.redsim.simulator.command.CommandProcessor;
import dev.redsim.simulator.engine.Config;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.Engine;
import dev.redsim.simulator.engine.TimeSource;
import dev.redsim.simulator.intercept.CommandInterceptor;
import dev.redsim.simulator.intercept.InterceptorRegistration;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.scripting.ScriptRunner;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * An in-process Redis-compatible server. Start one on a free port, point any Redis client at it, close it.
 * Each instance owns its event loop thread (which executes every command, like Redis's main thread), its
 * databases and its clock, so many can run in one JVM.
 *
 * <pre>{@code
 * try (RedisSimulator redis = RedisSimulator.start()) {
 *     Jedis jedis = new Jedis(redis.host(), redis.port());
 * }
 * }</pre>
 */
public final class RedisSimulator implements AutoCloseable {
    private static final long CLOSE_WAIT_SECONDS = 5;
    private final java.util.concurrent.atomic.AtomicBoolean closing = new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);

    private final Engine engine;
    private final CommandProcessor commands;
    private final ScriptRunner scriptRunner;
    private final dev.redsim.simulator.scripting.Scripting scripting;
    private final TimeSource time;
    /** The engine's loop and the transport's (decision 0049). */
    private final ServerThreads threads;
    private final Listeners listeners;
    /** False for a cluster node: the cluster owns the event loops all its nodes share, and stops them. */
    private final boolean ownsThreads;
    /** This server's cluster state: never joined on a standalone server (decision 0015). */
    private final ClusterState cluster = new ClusterState();
    /** Set when this server joins a cluster: how it replicates another node (decision 0022). */
    private NodeReplication replicaRole;
    private volatile String host;
    private final String password;
    /** The builder's interceptor (or null), which {@link #resetInterceptor()} puts back. */
    private final CommandInterceptor startInterceptor;
    /** The interceptor installed now; read and written on the engine thread only. */
    private CommandInterceptor currentInterceptor;

    private RedisSimulator(Builder b) {
        this.ownsThreads = b.sharedLoop == null;
        // The loop's thread comes up meanwhile; everything up to the join needs none of it (decisions 0031, 0049)
        ThreadsStart starting = ownsThreads ? OwnStart.inBackground() : ThreadsStart.made(b.sharedLoop.threads());
        CommandRoom room;
        try {
            this.time = ownsThreads ? new TimeSource(b.clock) : b.sharedLoop.time();
            // The rooms, wired bottom up: the engine, the command table and its call path, scripting, the commands.
            this.engine = new Engine(configuration(b), time, b.databases);
            room = CommandRoom.wire(engine, time, cluster, b.scriptMemoryLimit);
        } catch (RuntimeException | Error e) {
            starting.abandon(); // no thread outlives a failed start
            throw e;
        }
        this.threads = starting.join();
        this.commands = room.commands();
        this.scriptRunner = room.scriptRunner();
        this.scripting = room.scripting();
        this.startInterceptor = b.interceptor;
        this.currentInterceptor = b.interceptor;
        commands.interceptor(b.interceptor); // before the event loop starts, which publishes it to that thread
        this.listeners = new Listeners(threads.sockets(new ClientAcceptor(engine, time)));
        try {
            listeners.start(Listeners.addresses(b.bind), b.port);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (ownsThreads) {
                threads.stop();
            }
            throw new IllegalStateException("interrupted while binding " + b.bind + ":" + b.port, e);
        } catch (Exception e) {
            if (ownsThreads) {
                threads.stop();
            }
            throw new IllegalStateException("cannot listen on " + b.bind + ":" + b.port + ": " + bindFailure(e), e);
        }
        this.host = listeners.reachableHost() == null ? b.bind : listeners.reachableHost();
        this.password = b.password;
        int port = listeners.port();
        // SHUTDOWN runs on the engine thread, which close() stops and waits for: it closes from a thread of its own
        engine.onShutdown(new ShutdownCommand());
        // Queued, not awaited: the engine thread runs it before anything a client sends (its connection registers
        // on the same loop later), and a start no longer waits for that thread to come up (decision 0035). The
        // crons are scheduled from inside it: scheduled from this thread, each would be a task of its own that may
        // wake the loop again while a client connects (decision 0042).
        threads.execute(new StartOnEngineThread(port));
    }

    // The start's tasks and callbacks are named classes, not lambdas: a fresh JVM spins a class (and often method
    // handle forms) for each lambda at its first use, which a test suite's first simulator would pay at its start.

    /** What a start queues on the engine thread: the port it listens on, its socket parameters, its timers. */
    private final class StartOnEngineThread implements Runnable {
        private final int port;

        StartOnEngineThread(int port) {
            this.port = port;
        }

        @Override
        public void run() {
            engine.port(port);
            engine.config().setInternal("port", Integer.toString(port));
            // CONFIG SET port and bind take effect as in Redis (or fail, leaving the sockets as they were)
            engine.config().onChange("port", new SocketParameter("port"));
            engine.config().onChange("bind", new SocketParameter("bind"));
            // serverCron's work at hz 10 (active expiry, the instantaneous_* samples, clientsCron's idle timeout,
            // replicationCron's keepalive); blocked clients' timeouts far more often, as Redis checks them in every
            // event loop turn
            threads.scheduleAtFixedRate(new EngineCron(engine, false), 100, 100, TimeUnit.MILLISECONDS);
            threads.scheduleAtFixedRate(new EngineCron(engine, true), 10, 10, TimeUnit.MILLISECONDS);
        }
    }

    /** CONFIG SET port or bind: the listening sockets follow. */
    private final class SocketParameter implements java.util.function.Consumer<String> {
        private final String name;

        SocketParameter(String name) {
            this.name = name;
        }

        @Override
        public void accept(String value) {
            if (name.equals("port")) {
                listeners.changePort(Integer.parseInt(value));
                engine.port(listeners.port());
            } else {
                listeners.changeBind(Listeners.addresses(value));
                if (listeners.reachableHost() != null) {
                    host = listeners.reachableHost();
                }
            }
        }
    }

    /** The engine's timers: serverCron's hz-10 work, or the blocked clients' timeouts. */
    private static final class EngineCron implements Runnable {
        private final Engine engine;
        private final boolean blockedTimeouts;

        EngineCron(Engine engine, boolean blockedTimeouts) {
            this.engine = engine;
            this.blockedTimeouts = blockedTimeouts;
        }

        @Override
        public void run() {
            if (blockedTimeouts) {
                engine.checkBlockedTimeouts();
                return;
            }
            engine.activeExpireCycle();
            engine.sampleRates();
            engine.clientsCron();
            engine.replicationCron();
        }
    }

    /** SHUTDOWN from a client: the server closes itself from a thread of its own. */
    private final class ShutdownCommand implements Runnable {
        @Override
        public void run() {
            new Thread(RedisSimulator.this::close, "redsim-shutdown").start();
        }
    }

    /** The configuration the builder asks for: Redis's defaults, then its options, each checked as Redis checks it. */
    private static Config configuration(Builder b) {
        Config config = new Config();
        config.setInternal("bind", b.bind);
        if (b.password != null) {
            config.setInternal("requirepass", b.password);
        }
        config.setInternal("databases", Integer.toString(b.databases));
        config.setInternal("dir", System.getProperty("user.dir"));
        for (java.util.Map.Entry<String, String> parameter : b.parameters.entrySet()) {
            String name = parameter.getKey();
            String value = parameter.getValue();
            if (!config.known(name)) {
                throw new IllegalArgumentException("unknown Redis configuration parameter: " + name);
            }
            try {
                config.setInternal(name, config.validatedAtStart(name, value));
            } catch (RedisError e) {
                throw new IllegalArgumentException("invalid value '" + value + "' for Redis configuration parameter "
                        + name + ": " + e.getMessage(), e);
            }
        }
        return config;
    }

    /** The event loops and the clock every node of a cluster shares (owned and stopped by the cluster). */
    record SharedLoop(ServerThreads threads, TimeSource time) {
        static SharedLoop start(Clock clock) {
            return new SharedLoop(OwnThreads.started("redsim-cluster"), new TimeSource(clock));
        }

        void stop() {
            threads.stop();
        }
    }

    /**
     * Makes this server the node {@code myself} of a cluster: cluster-enabled, its database 0 keeps its keys by slot,
     * and calls with keys it does not serve are redirected from now on.
     */
    void joinCluster(ClusterTopology topology, ClusterNodeInfo myself) {
        onEngine(() -> {
            engine.config().setInternal("cluster-enabled", "yes");
            cluster.join(topology, myself, engine.database(0));
            cluster.config(engine.config()); // cluster-require-full-coverage, cluster-allow-*-when-down
            topology.peer(myself, new InProcessPeer(engine, commands)); // MIGRATE from another node calls it directly
            myself.replicationOffset(() -> engine.replication().offset()); // SLOTS / SHARDS read it (decision 0022)
            replicaRole = new NodeReplication(engine, commands, scripting.functions(), host(), port());
            commands.clusterGate(cluster);
            return null;
        });
    }

    /** This cluster node's replication with the other nodes (engine thread only): for replicas and failovers. */
    NodeReplication replicaRole() {
        return replicaRole;
    }

    /**
     * The node's process dies (RedisCluster.stop): its listening socket closes, so its port refuses connections, and
     * every connection drops with whatever it had not read. Engine thread only.
     */
    void crash() {
        listeners.close();
        for (ClientConnection client : engine.clients().toArray(new ClientConnection[0])) {
            client.reply().discardPending();
            engine.closeNow(client);
        }
    }

    /**
     * The node's process starts again without persistence (RedisCluster.start): no keys, no function libraries, no
     * cached scripts, a new replication history, and its socket on the same port and addresses. Engine thread only.
     */
    void restartEmpty() {
        for (var db : engine.databases()) {
            db.clear();
        }
        scripting.functions().flush();
        scripting.flush();
        engine.replication().restart();
        listeners.reopen();
    }

    /** This node's cluster state (engine thread only): for {@link RedisCluster}'s slot moves. */
    ClusterState clusterState() {
        return cluster;
    }

    /** Connects this cluster node to the others (the bus its PUBLISHes travel on). */
    void connectClusterBus(dev.redsim.simulator.cluster.ClusterBus bus) {
        onEngine(() -> {
            cluster.connect(bus);
            return null;
        });
    }

    /**
     * A PUBLISH that reached this node over the cluster bus: its subscribers (channels and patterns) receive it, as
     * clusterProcessPacket hands a publish message to pubsubPublishMessage. Engine thread only.
     */
    void receiveClusterPublish(byte[] channel, byte[] message) {
        engine.busy().whilePaused(() -> { // a long script of this node holds still meanwhile
            engine.pubSub().publish(channel, message);
            engine.flushPendingOutput();
        });
    }

    /** An SPUBLISH of another node of this node's shard, over the cluster bus (decision 0022). Engine thread only. */
    void receiveClusterShardPublish(byte[] channel, byte[] message) {
        engine.busy().whilePaused(() -> {
            engine.pubSub().publishShard(channel, message);
            engine.flushPendingOutput();
        });
    }

    /** The operating system's reason ("Address already in use"), without a "bind(..) failed: " prefix. */
    private static String bindFailure(Exception e) {
        String message = String.valueOf(e.getMessage());
        int colon = message.indexOf("failed: ");
        return colon >= 0 ? message.substring(colon + "failed: ".length()) : message;
    }

    /** A cluster of 3 masters on free ports of 127.0.0.1, on one thread and one clock: see {@link RedisCluster}. */
    public static RedisCluster.Builder cluster() {
        return RedisCluster.builder();
    }

    /** Starts a simulator on a free port of 127.0.0.1. */
    public static RedisSimulator start() {
        return builder().start();
    }

    public static Builder builder() {
        return new Builder();
    }

    public String host() {
        return host;
    }

    /** The port the simulator listens on (CONFIG SET port changes it; 0 when it listens nowhere). */
    public int port() {
        return listeners.port();
    }

    /** redis://host:port (with the password when one is set), for clients that take a URI. */
    public URI uri() {
        String credentials = password == null ? ""
                : ":" + java.net.URLEncoder.encode(password, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20") + "@";
        return URI.create("redis://" + credentials + host + ":" + port());
    }

    /** Stops time: TTLs and timeouts stand still until {@link #unfreezeTime()} or {@link #advanceTime}. */
    public void freezeTime() {
        time.freeze();
    }

    public void unfreezeTime() {
        time.unfreeze();
    }

    /**
     * Puts the clock back on the builder's clock, running, undoing every {@link #advanceTime} and freeze: for a
     * simulator shared between tests (the JUnit extension does it after {@link #flushAll()}). Keys left with a
     * TTL would live longer than they were given: flush first.
     */
    public void resetTime() {
        time.reset();
    }

    /**
     * Moves the simulator's clock forward and expires, before returning, every key whose time has passed and
     * every blocking command (BLPOP, BZPOPMIN, ...) whose timeout has passed, so the next command of any client
     * sees the new time (like miniredis's FastForward).
     */
    public void advanceTime(Duration amount) {
        time.advance(amount);
        afterTimeAdvanced();
    }

    /** Expires what the clock's advance made due (every node of a cluster, whose clock is shared, does it). */
    void afterTimeAdvanced() {
        onEngine(() -> {
            engine.checkPause(); // first: a pause stops expiry while it lasts
            engine.expireAllDue();
            engine.checkBlockedTimeouts();
            return null;
        });
    }

    /** The simulator's current time in epoch milliseconds. */
    public long currentTimeMillis() {
        return time.millis();
    }

    /** Removes every key of every database (FLUSHALL), from outside any connection. */
    public void flushAll() {
        onEngine(() -> {
            for (var db : engine.databases()) {
                db.clear();
            }
            return null;
        });
    }

    /** Runs code on the engine thread and waits for it; the way to touch engine state from a test thread. */
    public <T> T onEngine(Callable<T> task) {
        if (threads.inEngineThread()) {
            try {
                return task.call();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        try {
            java.util.concurrent.FutureTask<T> run = new java.util.concurrent.FutureTask<>(task);
            threads.execute(run);
            return run.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * Installs an interceptor that sees every command clients send from now on and may answer it, fail it or cut
     * the connection (see {@link CommandInterceptor}), in place of the current one until the returned registration
     * is closed.
     */
    public InterceptorRegistration intercept(CommandInterceptor interceptor) {
        Objects.requireNonNull(interceptor, "interceptor");
        CommandInterceptor replaced = installInterceptor(interceptor);
        return () -> installInterceptor(replaced);
    }

    /**
     * Puts back the builder's interceptor, or none; the JUnit extension does this before each test, so that one
     * test's injected failures never reach the next.
     */
    public void resetInterceptor() {
        installInterceptor(startInterceptor);
    }

    private CommandInterceptor installInterceptor(CommandInterceptor interceptor) {
        return onEngine(() -> {
            CommandInterceptor replaced = currentInterceptor;
            currentInterceptor = interceptor;
            commands.interceptor(interceptor);
            return replaced;
        });
    }

    /** The engine, for tests of simulator internals; call it only through {@link #onEngine}. */
    public Engine engine() {
        return engine;
    }

    /** The command path's ACL, for tests of simulator internals (whether it has been made yet: decision 0035). */
    dev.redsim.simulator.command.AccessControl accessControl() {
        return commands.accessControl();
    }

    /** The script runner, for tests of simulator internals (whether a script is running now). */
    public ScriptRunner scriptRunner() {
        return scriptRunner;
    }

    /**
     * Closes the listening socket and every connection, and stops the engine thread. Closing again, or while a
     * SHUTDOWN command closes it, waits for that close to end.
     */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            awaitClosed(Duration.ofSeconds(3 * CLOSE_WAIT_SECONDS));
            return;
        }
        try {
            scriptRunner.shutdown(); // first: a running script holds the engine thread until it stops
            if (!ownsThreads) {
                listeners.close();
                return; // a cluster node: the cluster stops the threads its nodes share, with their connections
            }
            threads.stop(); // closes every socket, the listening ones too: their ports are free on return
        } finally {
            closed.countDown();
        }
    }

    /** Whether the simulator has been closed (by {@link #close()} or by a client's SHUTDOWN). */
    public boolean isClosed() {
        return closed.getCount() == 0;
    }

    /** Waits until the simulator is closed (a client's SHUTDOWN, or another thread's close); false on timeout. */
    public boolean awaitClosed(Duration timeout) {
        try {
            return closed.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return isClosed();
        }
    }

    /** Options for a simulator; defaults: 127.0.0.1, a free port, no password, system clock, 16 databases. */
    public static final class Builder {
        private int port;
        private String bind = "127.0.0.1";
        private String password;
        private Clock clock = Clock.systemUTC();
        private int databases = 16;
        private long scriptMemoryLimit;
        private final java.util.Map<String, String> parameters = new java.util.LinkedHashMap<>();
        private CommandInterceptor interceptor;
        /** Set by {@link RedisCluster} for its nodes: the event loops and clock they share. */
        private SharedLoop sharedLoop;

        Builder sharedLoop(SharedLoop loop) {
            this.sharedLoop = loop;
            return this;
        }

        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port out of range: " + port);
            }
            this.port = port;
            return this;
        }

        public Builder bind(String address) {
            this.bind = address;
            return this;
        }

        /** requirepass: clients must AUTH (or HELLO ... AUTH) first. */
        public Builder password(String password) {
            this.password = password;
            return this;
        }

        /** The clock the simulator follows (time control then moves relative to it). */
        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /**
         * The heap one Lua script may add (default: a quarter of the JVM's maximum heap). A script that needs more
         * fails with "not enough memory", as Redis's Lua does when its allocator fails, and the server goes on.
         */
        public Builder scriptMemoryLimit(long bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("script memory limit must be positive: " + bytes);
            }
            this.scriptMemoryLimit = bytes;
            return this;
        }

        public Builder databases(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("at least one database: " + count);
            }
            this.databases = count;
            return this;
        }

        /**
         * Any Redis configuration parameter at start, as redis-server takes them on its command line, including
         * ones CONFIG SET cannot change (e.g. {@code config("enable-debug-command", "yes")},
         * {@code config("notify-keyspace-events", "KEA")}).
         */
        public Builder config(String name, String value) {
            parameters.put(name.toLowerCase(), value);
            return this;
        }

        /**
         * An interceptor installed from the start, that sees every command clients send (see
         * {@link CommandInterceptor}); {@link RedisSimulator#intercept} installs one later.
         */
        public Builder interceptor(CommandInterceptor interceptor) {
            this.interceptor = interceptor;
            return this;
        }

        public RedisSimulator start() {
            return new RedisSimulator(this);
        }
    }
}
