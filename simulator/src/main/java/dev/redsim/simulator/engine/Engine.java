package dev.redsim.simulator.engine;

import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.keyspace.AccessTracked;
import dev.redsim.simulator.keyspace.KeyspaceHooks;
import dev.redsim.simulator.keyspace.RedisValue;
import dev.redsim.simulator.protocol.ProtocolError;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.server.ClientUser;
import dev.redsim.simulator.server.ConnectionEvents;
import dev.redsim.simulator.server.ServerContext;
import dev.redsim.simulator.util.RandomHex;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The engine: databases, configuration, clients, blocked clients, pub/sub and expiry, driven by exactly one thread
 * (the server's event loop), as Redis's main thread drives server.c. Nothing here locks; everything that arrives
 * from another thread is handed to that thread first. Commands run in the layer above ({@link InputProcessor}),
 * which the engine reaches only through that interface.
 */
public final class Engine implements KeyspaceHooks, ServerContext, ConnectionEvents {
    private final Config config;
    private final TimeSource time;
    private final CallClock callClock;
    private final Database[] databases;
    private final WatchedKeys watchedKeys;
    private final Map<Long, ClientConnection> clients = new LinkedHashMap<>();
    private final Stats stats = new Stats();
    private final PubSub pubSub = new PubSub(this);
    private final BusyMode busy = new BusyMode(this);
    private final ClientLimits limits;
    private final SlowLog slowLog;
    private final Monitors monitors;
    private final ClientPause pause = new ClientPause();
    private final Tracking tracking = new Tracking(this);
    private final LatencyMonitor latency;
    private final Replication replication = new Replication(this);
    private final Propagation propagation = new Propagation(replication);
    private final String runId;
    private final long startMillis;
    /** The engine's own randomness (LFU increments, eviction sampling): never shared with another simulator. */
    private final java.util.Random random = new java.util.Random();
    private final Eviction eviction = new Eviction(this, random);
    private final ClientEviction clientEviction;
    /** maxmemory and its companions, read on every command and key access: kept here as CONFIG SET changes them. */
    private long maxmemory;
    private EvictionPolicy evictionPolicy;
    private int maxmemorySamples;
    private long lfuLogFactor;
    private long lfuDecayTime;
    /** The bytes all clients hold, as last measured per client ({@link ClientConnection#memoryUsage}). */
    private long clientsMemory;
    private long usedMemoryPeak;
    /** Whether memory was over maxmemory when the current command started (Redis's pre_command_oom_state). */
    private boolean preCommandOom;
    private long nextClientId = 1;
    private int port;
    private long lastSaveSeconds;
    private boolean scriptStarted;
    private long scriptStartMillis;

    public Engine(Config config, TimeSource time, int databaseCount) {
        this.config = config;
        this.limits = new ClientLimits(config, stats);
        this.slowLog = new SlowLog(config);
        this.latency = new LatencyMonitor(config, time);
        this.monitors = new Monitors(time, this);
        this.time = time;
        this.callClock = new CallClock(time);
        this.databases = new Database[databaseCount];
        for (int i = 0; i < databaseCount; i++) {
            databases[i] = new Database(i, this);
        }
        this.watchedKeys = new WatchedKeys(databases);
        this.runId = RandomHex.of(40);
        this.startMillis = time.millis();
        this.lastSaveSeconds = startMillis / 1000;
        this.blocked = new BlockedClients(databases);
        this.clientEviction = new ClientEviction(this, config);
        followMemoryConfig();
    }

    /** Reads the memory parameters now and whenever CONFIG SET changes them. */
    private void followMemoryConfig() {
        maxmemory = config.getLong("maxmemory");
        evictionPolicy = EvictionPolicy.parse(config.get("maxmemory-policy"));
        maxmemorySamples = (int) config.getLong("maxmemory-samples");
        lfuLogFactor = config.getLong("lfu-log-factor");
        lfuDecayTime = config.getLong("lfu-decay-time");
        for (String name : MemoryParameter.NAMES) {
            config.onChange(name, new MemoryParameter(name));
        }
    }

    /**
     * A memory parameter set by CONFIG SET. One class for all of them rather than a lambda each: a fresh JVM spins a
     * class per lambda at its first use, which every start of a test suite's first simulator would pay.
     */
    private final class MemoryParameter implements java.util.function.Consumer<String> {
        static final String[] NAMES = {
            "maxmemory", "maxmemory-policy", "maxmemory-samples", "lfu-log-factor", "lfu-decay-time",
            "maxmemory-clients"
        };
        private final String name;

        MemoryParameter(String name) {
            this.name = name;
        }

        @Override
        public void accept(String value) {
            switch (name) {
                case "maxmemory" -> {
                    maxmemory = Long.parseLong(value);
                    evictionDue = maxmemory != 0; // Redis's startEvictionTimeProc: evicts right after, without a command
                }
                case "maxmemory-policy" -> {
                    evictionPolicy = EvictionPolicy.parse(value);
                    eviction.forgetPool();
                }
                case "maxmemory-samples" -> maxmemorySamples = Integer.parseInt(value);
                case "lfu-log-factor" -> lfuLogFactor = Long.parseLong(value);
                case "lfu-decay-time" -> lfuDecayTime = Long.parseLong(value);
                case "maxmemory-clients" -> clientEviction.parse(value);
                default -> throw new IllegalStateException("not a memory parameter: " + name);
            }
        }
    }

    private boolean evictionDue;

    @Override
    public long clockMillis() {
        return callClock.millis();
    }

    /** The time keys expire against: a running script's start (Redis's scriptTimeSnapshot), else now. */
    @Override
    public long expiryMillis() {
        return scriptStarted ? scriptStartMillis : callClock.millis();
    }

    /**
     * A script starts (true) or ends (false): until it ends, keys expire against its start time, so that a key
     * the script saw does not vanish under it (and its effects replicate as they ran), as in Redis.
     */
    public void scriptTimeSnapshot(boolean running) {
        scriptStarted = running;
        scriptStartMillis = running ? time.millis() : 0;
    }

    // ---- accessors for commands ----

    public Config config() {
        return config;
    }

    public TimeSource time() {
        return time;
    }

    /** The time a command call's bookkeeping uses (read once per outermost call). */
    public CallClock callClock() {
        return callClock;
    }

    public Database database(int index) {
        return databases[index];
    }

    public int databaseCount() {
        return databases.length;
    }

    public Database[] databases() {
        return databases;
    }

    /** The command layer that runs clients' input; set once, before the first client connects. */
    private InputProcessor input;

    public void input(InputProcessor input) {
        this.input = input;
    }

    /** Whether a script runs past its time limit, and the rules the engine follows meanwhile. */
    public Monitors monitors() {
        return monitors;
    }

    public ClientPause pause() {
        return pause;
    }

    /** Ends the pause when its time has come, or at once (CLIENT UNPAUSE): the clients it held go on, in order. */
    public void endPause(boolean now) {
        for (ClientConnection client : pause.endIfDue(time.millis(), now)) {
            blocked.resumed(client);
        }
    }

    /** Client-side caching: who may cache which key, and the invalidations owed to them. */
    public Tracking tracking() {
        return tracking;
    }

    /** LATENCY's events and the per-command latency histograms. */
    public LatencyMonitor latency() {
        return latency;
    }

    /** The master side of replication: replicas, backlog, offsets, WAIT. */
    public Replication replication() {
        return replication;
    }

    /** What goes to the replication stream, grouped per command as Redis groups it. */
    public Propagation propagation() {
        return propagation;
    }

    /**
     * The server deleted a key on its own, because it expired or because maxmemory evicted it: the replicas hear
     * a DEL (an UNLINK when lazyfree-lazy-expire / lazyfree-lazy-eviction is on, as Redis's propagateDeletion).
     * Eviction calls this for each key it removes.
     */
    public void propagateServerDeletion(int db, Bytes key, boolean evicted) {
        boolean lazy = config.get(evicted ? "lazyfree-lazy-eviction" : "lazyfree-lazy-expire").equals("yes");
        propagation.serverDeleted(db, key, lazy);
    }

    /** replicationCron, once a second: the keepalive PING to replicas. */
    public void replicationCron() {
        if (!busy.active()) {
            replication.cron();
        }
    }

    public SlowLog slowLog() {
        return slowLog;
    }

    public BusyMode busy() {
        return busy;
    }

    public PubSub pubSub() {
        return pubSub;
    }

    public Stats stats() {
        return stats;
    }

    public String runId() {
        return runId;
    }

    public long startMillis() {
        return startMillis;
    }

    public int port() {
        return port;
    }

    public void port(int port) {
        this.port = port;
    }

    public long lastSaveSeconds() {
        return lastSaveSeconds;
    }

    public void markSaved() {
        lastSaveSeconds = time.millis() / 1000;
        stats.dirty = 0;
    }

    public Collection<ClientConnection> clients() {
        return Collections.unmodifiableCollection(clients.values());
    }

    public ClientConnection client(long id) {
        return clients.get(id);
    }

    // ---- connections ----

    /** Until the ACL installs its default user: requirepass alone decides, as before Redis 6. */
    private ClientUser defaultUser = new ClientUser() {
        @Override
        public String name() {
            return "default";
        }

        @Override
        public boolean nopass() {
            String pass = config.requirePass();
            return pass == null || pass.isEmpty();
        }

        @Override
        public boolean enabled() {
            return true;
        }

        @Override
        public boolean readsEveryKey() {
            return true;
        }
    };

    @Override
    public boolean authRequired() {
        return !defaultUser.passwordless();
    }

    @Override
    public ClientUser defaultUser() {
        return defaultUser;
    }

    /** The ACL's default user, which new connections start as; set once while the server is wired. */
    public void defaultUser(ClientUser user) {
        this.defaultUser = user;
    }

    @Override
    public long protoMaxBulkLen() {
        return config.protoMaxBulkLen();
    }

    @Override
    public long queryBufferLimit() {
        return config.getLong("client-query-buffer-limit");
    }

    @Override
    public void countNetInput(long bytes) {
        stats.netInputBytes += bytes;
    }

    @Override
    public void countNetOutput(long bytes) {
        stats.netOutputBytes += bytes;
    }

    public long nextClientId() {
        return nextClientId++;
    }

    public void clientConnected(ClientConnection client) {
        if (!limits.admit(client, clients.size())) {
            return;
        }
        clients.put(client.id(), client);
        client.registered(true);
        stats.connectionsReceived++;
        clientMemoryChanged(client);
    }

    /** clientsCron (hz 10): closes clients idle for longer than the timeout parameter, on the simulator's clock. */
    public void clientsCron() {
        if (busy.active()) {
            return;
        }
        for (ClientConnection idle : limits.idleClients(clients.values(), time.millis())) {
            closeNow(idle);
        }
        // Redis's clientsCron measures every client again (a client that read its output holds less now)
        for (ClientConnection client : clients.values()) {
            if (!client.closed()) {
                clientMemoryChanged(client);
            }
        }
        clientEviction.evictIfOverLimit();
        if (evictionDue) {
            performEvictions();
            afterExpiry(); // as after expiry outside a command: events out, blocked clients served
        }
    }

    /** After replies were written to a client: one that holds too much unread output is closed, as Redis does. */
    @Override
    public void outputWritten(ClientConnection client) {
        if (client.closed()) {
            return;
        }
        if (limits.overOutputLimit(client, time)) {
            closeNow(client);
            return;
        }
        clientMemoryChanged(client);
        clientEviction.evictIfOverLimit();
    }

    /** What stops the server when a client sends SHUTDOWN (RedisSimulator closes itself). */
    private Runnable shutdownHook;

    public void onShutdown(Runnable hook) {
        this.shutdownHook = hook;
    }

    /** SHUTDOWN: every client is dropped, the caller included (it gets no reply), then the server stops. */
    public void shutdown() {
        for (ClientConnection client : clients.values().toArray(new ClientConnection[0])) {
            client.reply().discardPending();
            closeNow(client);
        }
        if (shutdownHook != null) {
            shutdownHook.run();
        }
    }

    /** freeClient: unread output is dropped, subscriptions and blocking end at once (idle, CLIENT KILL, ACL). */
    public void closeNow(ClientConnection client) {
        client.markClosed();
        clientsMemory -= client.accountedMemory(); // freeClient frees its buffers at once
        client.accountedMemory(0);
        blocked.forget(client);
        if (client.connection() != null) {
            client.connection().close();
        }
    }

    /**
     * Connections that were written to by another connection's command (pub/sub messages, a blocked client
     * served by a push, a killed client's last words): flushed once the current batch is done.
     */
    private final java.util.LinkedHashSet<ClientConnection> pendingOutput = new java.util.LinkedHashSet<>();

    /** Asks for a connection's pending replies to be flushed at the end of the current batch. */
    public void markPendingOutput(ClientConnection client) {
        pendingOutput.add(client);
    }

    /** Flushes every connection marked by {@link #markPendingOutput}; called after each read batch and timer. */
    public void flushPendingOutput() {
        tracking.beforeSleep(); // BCAST invalidations gathered since the last batch go out with it
        if (pendingOutput.isEmpty()) {
            return;
        }
        ClientConnection[] targets = pendingOutput.toArray(new ClientConnection[0]);
        pendingOutput.clear();
        for (ClientConnection target : targets) {
            if (!target.closed()) {
                target.flush();
                target.wrote(time.millis()); // output counts as interaction (CLIENT LIST idle), as in Redis
            }
        }
    }

    public void clientDisconnected(ClientConnection client) {
        clientsMemory -= client.accountedMemory(); // its buffers are freed
        client.accountedMemory(0);
        discardTransaction(client);
        client.markClosed();
        clients.remove(client.id());
        client.registered(false);
        blocked.forget(client);
        pubSub.forget(client);
        monitors.remove(client);
        pause.forget(client);
        tracking.disable(client);
        replication.forget(client);
    }

    // ---- connection events (a connection driver's, as plain calls) ----

    // Each event runs at once unless a busy script must pause for it: the lambda is made (and, in a fresh JVM, its
    // class spun) only then.

    @Override
    public void connected(ClientConnection client) {
        if (busy.active()) {
            busy.whilePaused(() -> clientConnected(client));
        } else {
            clientConnected(client);
        }
    }

    @Override
    public void received(ClientConnection client, Object message) {
        if (client.closeAfterReply() || client.closed()) {
            return; // Redis stops reading from a client it is about to close
        }
        if (client.blocked() || client.hasDeferredInput()) {
            client.deferInput(message); // a blocked client's commands (or a busy script's caller's) wait, in order
            if (client.deferredInputBytes() > queryBufferLimit() && !client.masterLink()) {
                // they wait in Redis's query buffer, whose limit closes the client without a reply (as the
                // decoder does for a command not yet whole)
                client.reply().discardPending();
                closeNow(client);
            }
            return;
        }
        if (busy.active()) {
            busy.whilePaused(() -> input.process(client, message)); // -BUSY, or an ALLOW_BUSY command
            return;
        }
        input.process(client, message);
    }

    @Override
    public void readComplete(ClientConnection client) {
        if (busy.active()) {
            busy.whilePaused(() -> afterRead(client));
        } else {
            afterRead(client);
        }
    }

    private void afterRead(ClientConnection client) {
        client.flush();
        processUnblockedClients(); // clients this batch woke run what they sent while blocked
        // this batch may have written to other connections too (pub/sub messages, served blocked clients)
        flushPendingOutput();
    }

    @Override
    public void disconnected(ClientConnection client) {
        if (busy.active()) {
            busy.whilePaused(() -> dropClient(client));
        } else {
            dropClient(client);
        }
    }

    private void dropClient(ClientConnection client) {
        client.reply().discardPending();
        clientDisconnected(client);
    }

    /** A protocol error: Redis answers it and closes the connection once the reply is out. */
    public static void protocolError(ClientConnection client, ProtocolError error) {
        client.reply().enabled(true);
        client.reply().error("ERR " + error.message());
        client.closeAfterReply(true);
    }

    /**
     * What follows a command whose script ended after the engine went busy: the rest of a command's after-work,
     * then the caller's pipelined input that waited meanwhile, then the flush.
     */
    public void resumeAfterScript(ClientConnection caller) {
        if (caller.closed()) {
            caller.reply().discardPending();
        } else {
            afterCommand(caller);
            markPendingOutput(caller);
        }
        tracking.afterCommand(); // the script's invalidations of the caller's own keys follow its reply
        tracking.currentClient(null);
        handleBlockedClients();
        while (!busy.active() && !caller.blocked() && !caller.closed() && !caller.closeAfterReply()
                && caller.hasDeferredInput()) {
            input.process(caller, caller.pollDeferredInput());
        }
        processUnblockedClients();
        flushPendingOutput();
    }

    /**
     * Redis's resetClient for CLIENT REPLY SKIP: the command after SKIP runs silently, and the one after that
     * is heard again.
     */
    public void afterCommand(ClientConnection client) {
        if (!client.closed() && client.registered()) {
            clientMemoryChanged(client);
        }
        if (evictionDue) {
            performEvictions(); // CONFIG SET maxmemory evicts at once, as Redis's eviction time proc
        }
        ClientConnection.ReplyMode mode = client.replyMode();
        if (mode == ClientConnection.ReplyMode.SKIP) {
            client.replyMode(ClientConnection.ReplyMode.ON);
            client.reply().enabled(true);
        } else if (mode == ClientConnection.ReplyMode.SKIP_NEXT) {
            client.replyMode(ClientConnection.ReplyMode.SKIP);
            client.reply().enabled(false);
        }
    }

    // ---- transactions ----

    /** WATCH of one key in the client's selected database. */
    public void watch(ClientConnection client, Bytes key) {
        watchedKeys.watch(client, key);
    }

    /** UNWATCH: releases every watched key of the client. */
    public void unwatchAll(ClientConnection client) {
        watchedKeys.unwatchAll(client);
    }

    /** Whether a key the client watches has expired since WATCH (EXEC then fails, as in Redis 7.0). */
    public boolean watchedKeyExpired(ClientConnection client) {
        return watchedKeys.anyExpiredSinceWatch(client);
    }

    /** Leaves MULTI, drops the queue and releases the watched keys (DISCARD, EXEC's end, RESET, close). */
    public void discardTransaction(ClientConnection client) {
        client.multiState().reset();
        watchedKeys.unwatchAll(client);
    }

    // ---- keyspace effects ----

    /**
     * Redis's signalModifiedKey: WATCH invalidation hooks in here. It does not serve blocked clients: in Redis 7.0
     * only a key's creation does ({@link #added}, as dbAdd calls signalKeyAsReady), so a list or sorted set stored
     * over an existing key (SORT ... STORE, ZUNIONSTORE onto a string) leaves its waiters blocked; a stream reader
     * whose stream is deleted or overwritten hears of it (signalDeletedKeyAsReady).
     */
    public void signalModifiedKey(int db, Bytes key) {
        signalModifiedKey(null, db, key);
    }

    /**
     * As {@link #signalModifiedKey(int, Bytes)} for a change made by a client's command ({@code by}; null for the
     * server's own: expiry, eviction): every change of a key passes here, and so invalidates it for the clients
     * that may cache it (client-side caching), once, whatever made the change. BCAST clients in NOLOOP mode are
     * not told of the changes their own commands made.
     */
    public void signalModifiedKey(ClientConnection by, int db, Bytes key) {
        databases[db].remeasure(key); // used_memory follows the change (nothing when the key is gone)
        watchedKeys.touch(db, key);
        blocked.keyModified(db, key); // readers of a type the key no longer holds get their error
        tracking.invalidateKey(by, key, true);
    }

    /**
     * Redis's signalKeyAsReady, for a command that makes an existing key able to serve waiters without creating
     * it (Redis does this for streams, whose readers block on existing keys).
     */
    public void signalKeyAsReady(int db, Bytes key) {
        blocked.keyReady(db, key);
    }

    /**
     * Redis's signalFlushedDb / touchAllWatchedKeysInDb, before a database is emptied (FLUSHDB, FLUSHALL): WATCH
     * sees the keys that are about to go. Blocked clients hear of it after ({@link #flushedDb}).
     */
    public void signalFlushedDb(int db) {
        watchedKeys.touchAllInDb(db, null);
        tracking.invalidateAll(); // one null invalidation: cached keys are not per database
    }

    /** FLUSHALL's signalFlushedDb(-1): every database's watchers, and one null invalidation for all of them. */
    public void signalFlushedAll() {
        for (Database db : databases) {
            watchedKeys.touchAllInDb(db.id(), null);
        }
        tracking.invalidateAll();
    }

    /** After a database was emptied: its blocked readers of streams learn that their streams are gone. */
    public void flushedDb(int db) {
        blocked.databaseChanged(db);
    }

    /**
     * SWAPDB, called before the swap: a watched key of either database counts as changed when it exists in
     * either of them (Redis's touchAllWatchedKeysInDb with a replacement database).
     */
    public void signalSwappedDbs(int first, int second) {
        watchedKeys.touchAllInDb(first, second);
        watchedKeys.touchAllInDb(second, first);
    }

    /**
     * Redis's notifyKeyspaceEvent: when notify-keyspace-events selects the event's class, publishes the event
     * name on __keyspace@<db>__:<key> (K) and the key on __keyevent@<db>__:<event> (E).
     */
    public void notifyKeyspaceEvent(int type, String event, Bytes key, int db) {
        int flags = config.notifyFlags();
        if ((flags & type) == 0 || !pubSub.hasListeners()) {
            return; // nobody can hear it: publishing would reach no one
        }
        byte[] eventName = event.getBytes(StandardCharsets.US_ASCII);
        if ((flags & KeyspaceEvents.KEYSPACE) != 0) {
            pubSub.publish(concat(("__keyspace@" + db + "__:").getBytes(StandardCharsets.US_ASCII), key.bytes()),
                    eventName);
        }
        if ((flags & KeyspaceEvents.KEYEVENT) != 0) {
            pubSub.publish(("__keyevent@" + db + "__:" + event).getBytes(StandardCharsets.US_ASCII), key.bytes());
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }

    /** Redis's lookupKeyRead notifies "keymiss" (class m) when a read finds nothing. */
    @Override
    public void missed(Database db, Bytes key) {
        notifyKeyspaceEvent(KeyspaceEvents.KEY_MISS, "keymiss", key, db.id());
    }

    /**
     * Redis's dbAdd notifies "new" (class n) whenever a key is created, and signals the key as ready for clients
     * blocked on it (signalKeyAsReady): creating a key, whatever the command (a push, RENAME, MOVE, COPY, a store),
     * is what wakes them.
     */
    @Override
    public void added(Database db, Bytes key) {
        blocked.keyReady(db.id(), key);
        notifyKeyspaceEvent(KeyspaceEvents.NEW, "new", key, db.id());
    }

    public void addDirty(long changes) {
        stats.dirty += changes;
    }

    @Override
    public void expired(Database db, Bytes key) {
        keyRemovedByServer(db, key, ServerRemoval.EXPIRED);
    }

    /** Why the server itself removed a key. */
    public enum ServerRemoval { EXPIRED, EVICTED }

    /**
     * Every key the server removes on its own, after it is gone from the database: an expired key (lazily or by
     * the active sweep) and an evicted one. Like Redis's deleteExpiredKeyAndPropagate and the eviction path of
     * performEvictions: the stats, signalModifiedKey (WATCH, blocked readers) and the "expired" / "evicted" event.
     * This is the one place where the replication stream (a DEL for each) and client-side caching invalidation
     * hook in.
     */
    public void keyRemovedByServer(Database db, Bytes key, ServerRemoval reason) {
        if (reason == ServerRemoval.EXPIRED) {
            stats.expiredKeys++;
            signalModifiedKey(db.id(), key);
            propagateServerDeletion(db.id(), key, false);
            notifyKeyspaceEvent(KeyspaceEvents.EXPIRED, "expired", key, db.id());
        } else {
            stats.evictedKeys++;
            signalModifiedKey(db.id(), key);
            propagateServerDeletion(db.id(), key, true);
            notifyKeyspaceEvent(KeyspaceEvents.EVICTED, "evicted", key, db.id());
        }
    }

    /** Removes a key to free memory (called by {@link Eviction} only). */
    void evict(Database db, Bytes key) {
        if (db.delete(key)) {
            keyRemovedByServer(db, key, ServerRemoval.EVICTED);
        }
    }

    // ---- memory (used_memory, maxmemory, client eviction) ----

    /** What Redis 7.0 reports as used_memory_startup on 64 bits: the server before any key or client. */
    public static final long STARTUP_MEMORY = 876_008;

    /**
     * used_memory: an estimate of what Redis would have allocated for the same data and clients (startup, every
     * database's keys, values and tables, every client's buffers). O(databases): each part is kept up to date as
     * writes happen, never recounted.
     */
    public long usedMemory() {
        long used = STARTUP_MEMORY + clientsMemory;
        for (Database db : databases) {
            used += db.usedBytes();
        }
        if (used > usedMemoryPeak) {
            usedMemoryPeak = used;
        }
        return used;
    }

    public long usedMemoryPeak() {
        return Math.max(usedMemoryPeak, usedMemory());
    }

    /** The part of used_memory that clients hold (INFO's mem_clients_normal). */
    public long clientsMemory() {
        return clientsMemory;
    }

    /** Measures a client's memory again (after a command, after output was written to it, in the cron). */
    public void clientMemoryChanged(ClientConnection client) {
        long now = client.memoryUsage();
        clientsMemory += now - client.accountedMemory();
        client.accountedMemory(now);
    }

    /**
     * Redis's performEvictions, run before each command while maxmemory is set: evicts keys by the policy until
     * memory is under the limit. Returns false when it stays over the limit (noeviction, or nothing left the policy
     * may evict), which makes denyoom commands fail with -OOM. Nothing is evicted while a script runs on past its
     * time limit or while clients are paused (the dataset must stay still), as in Redis.
     */
    public boolean performEvictions() {
        evictionDue = false;
        if (maxmemory == 0 || busy.active() || pause.active()) {
            return true;
        }
        return eviction.perform(maxmemory, evictionPolicy, maxmemorySamples);
    }

    public long maxmemory() {
        return maxmemory;
    }

    /** Records whether memory was over the limit as the current command started (scripts decide by it). */
    public void preCommandOom(boolean outOfMemory) {
        this.preCommandOom = outOfMemory;
    }

    public boolean preCommandOom() {
        return preCommandOom && maxmemory != 0;
    }

    /** Redis's evictClients, before a command: false when the client itself was evicted (its command then does not run). */
    public boolean evictClientsBefore(ClientConnection client) {
        if (busy.active()) {
            return true; // the script thread owns the server meanwhile; the cron catches up afterwards
        }
        clientMemoryChanged(client);
        clientEviction.evictIfOverLimit();
        return !client.closed();
    }

    long lfuDecayTime() {
        return lfuDecayTime;
    }

    /** Redis's lookupKey: under an LFU policy, the access counts in the key's logarithmic counter. */
    @Override
    public void accessed(RedisValue value) {
        if (evictionPolicy.lfu()) {
            ((AccessTracked) value).lfuTouched(callClock.millis(), lfuDecayTime, lfuLogFactor, random.nextDouble());
        }
    }

    /** DEBUG SET-ACTIVE-EXPIRE: whether the sweep runs (keys still expire when they are looked up). */
    private boolean activeExpireEnabled = true;

    public void activeExpireEnabled(boolean enabled) {
        this.activeExpireEnabled = enabled;
    }

    /** Keys one active-expiry round may remove per database, to bound the pause it causes. */
    private static final int ACTIVE_EXPIRE_LIMIT = 10_000;

    /** One round of active expiry over all databases (serverCron's activeExpireCycle, run at hz 10). */
    public void activeExpireCycle() {
        if (!activeExpireEnabled || busy.active() || pause.active()) { // a pause stops active expiry too (it would write)
            return; // timers wait while a script runs on (the script thread owns the keyspace)
        }
        long started = System.nanoTime();
        int expired = 0;
        for (Database db : databases) {
            expired += db.sweepExpired(ACTIVE_EXPIRE_LIMIT);
        }
        if (expired > 0) { // a cycle that removed nothing measures only the JVM's own pauses
            latency.addSampleIfNeeded("expire-cycle", (System.nanoTime() - started) / 1_000_000);
        }
        afterExpiry();
    }

    /** serverCron's samples for the instantaneous rates in INFO; skipped while a script runs on, as timers are. */
    public void sampleRates() {
        if (!busy.active()) {
            stats.sampleRates();
        }
    }

    /** Removes everything whose time has passed, in every database (after a test moves the clock). */
    public void expireAllDue() {
        if (busy.active() || pause.active()) {
            return;
        }
        for (Database db : databases) {
            db.sweepAllExpired();
        }
        afterExpiry();
    }

    /**
     * After keys expired outside a command, as Redis's beforeSleep: blocked clients whose keys went are served (a
     * blocked XREADGROUP learns that its stream expired), and "expired" notifications reach subscribers.
     */
    private void afterExpiry() {
        handleBlockedClients();
        processUnblockedClients();
        flushPendingOutput();
    }

    // ---- blocked clients (blocked.c) ----

    private final BlockedClients blocked;
    private boolean runningUnblockedInput;

    public BlockedClients blockedClients() {
        return blocked;
    }

    /**
     * What Redis does after a command (and after a whole EXEC, whose queued commands do not pass through
     * CommandProcessor.execute): serves clients blocked on keys the command made ready (handleClientsBlockedOnKeys).
     */
    public void handleBlockedClients() {
        if (blocked.hasReadyKeys() && !busy.active()) { // as Redis, not while a script runs on
            blocked.serveReadyKeys(this);
        }
    }

    /**
     * Redis's processUnblockedClients, run before the event loop sleeps: the commands that clients woken since
     * sent while blocked now run, in order, until a client blocks again. Called at the end of each read batch
     * and after the timeout check, so a pipeline that woke a client finishes before that client's commands run.
     */
    public void processUnblockedClients() {
        if (!blocked.hasUnblocked() || runningUnblockedInput || busy.active()) {
            return;
        }
        runningUnblockedInput = true;
        try {
            ClientConnection woken;
            while (!busy.active() && (woken = blocked.pollUnblocked()) != null) {
                markPendingOutput(woken);
                while (!woken.blocked() && !woken.closed() && !woken.closeAfterReply() && woken.hasDeferredInput()) {
                    input.process(woken, woken.pollDeferredInput());
                }
            }
        } finally {
            runningUnblockedInput = false;
        }
    }

    /** Ends a CLIENT PAUSE whose time has passed: the clients it held run what they sent meanwhile. */
    public void checkPause() {
        if (pause.active() && !busy.active()) {
            endPause(false);
            processUnblockedClients();
            flushPendingOutput();
        }
    }

    /** Times out blocked clients whose deadline passed on the simulator clock; run by a timer and by advanceTime. */
    public void checkBlockedTimeouts() {
        checkPause();
        if (blocked.countWithTimeout() == 0 || busy.active()) {
            return;
        }
        blocked.timeOut(this, time.millis());
        processUnblockedClients();
        flushPendingOutput();
    }
}
