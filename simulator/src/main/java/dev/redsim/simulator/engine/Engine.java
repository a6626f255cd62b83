package dev.redsim.simulator.engine;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFlag;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.commands.CommandFamilies;
import dev.redsim.simulator.intercept.CommandInterceptor;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.keyspace.KeyspaceHooks;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.server.ConnectionHandler;
import dev.redsim.simulator.server.ServerContext;
import dev.redsim.simulator.scripting.Scripting;
import dev.redsim.simulator.scripting.ScriptRunner;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Collection;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The engine: databases, configuration, clients and the command table, driven by exactly one thread (the
 * server's event loop), as Redis's main thread drives server.c. Nothing here locks; everything that arrives
 * from another thread is handed to that thread first.
 */
public final class Engine implements KeyspaceHooks, ServerContext {
    private final Config config;
    private final TimeSource time;
    private final Database[] databases;
    private final WatchedKeys watchedKeys;
    private final CommandTable table = new CommandTable();
    private final CommandContext context = new CommandContext(this);
    private final Map<Long, ClientConnection> clients = new LinkedHashMap<>();
    private final Stats stats = new Stats();
    private final PubSub pubSub = new PubSub(this);
    private final Scripting scripting = new Scripting(this);
    private final ScriptRunner scriptRunner = new ScriptRunner(this);
    private final BusyMode busy = new BusyMode(this);
    private final String runId;
    private final long startMillis;
    private long nextClientId = 1;
    private int port;
    private long lastSaveSeconds;

    public Engine(Config config, TimeSource time, int databaseCount) {
        this.config = config;
        this.time = time;
        this.databases = new Database[databaseCount];
        for (int i = 0; i < databaseCount; i++) {
            databases[i] = new Database(i, time::millis, this);
        }
        byte[] random = new byte[20];
        new SecureRandom().nextBytes(random);
        this.watchedKeys = new WatchedKeys(databases);
        this.runId = HexFormat.of().formatHex(random);
        this.startMillis = time.millis();
        this.lastSaveSeconds = startMillis / 1000;
        CommandFamilies.registerAll(table);
        this.blocked = new BlockedClients(databases);
    }

    // ---- accessors for commands ----

    public Config config() {
        return config;
    }

    public TimeSource time() {
        return time;
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

    public CommandTable table() {
        return table;
    }

    /** Lua scripting: the EVAL cache and the Lua state. */
    public Scripting scripting() {
        return scripting;
    }

    /** Runs scripts on the script thread and hands long ones over to busy mode (decision 0004). */
    public ScriptRunner scriptRunner() {
        return scriptRunner;
    }

    /** Whether a script runs past its time limit, and the rules the engine follows meanwhile. */
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

    @Override
    public boolean authRequired() {
        String pass = config.requirePass();
        return pass != null && !pass.isEmpty();
    }

    @Override
    public long protoMaxBulkLen() {
        return config.protoMaxBulkLen();
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
        clients.put(client.id(), client);
        stats.connectionsReceived++;
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
        discardTransaction(client);
        client.markClosed();
        clients.remove(client.id());
        blocked.forget(client);
        pubSub.forget(client);
    }

    // ---- dispatch ----

    /** Runs one command for a client, writing its reply (processCommand + call in server.c). */
    public void execute(ClientConnection client, byte[][] args) {
        dispatch(client, args);
        if (busy.isCaller(client)) {
            return; // its script went on past the time limit: what follows runs when it ends (resumeAfterScript)
        }
        afterCommand(client);
        handleBlockedClients();
    }

    /**
     * What follows a command whose script ended after the engine went busy: the rest of {@link #execute}, then
     * the caller's pipelined input that waited meanwhile, then the flush.
     */
    public void resumeAfterScript(ClientConnection caller) {
        if (caller.closed()) {
            caller.reply().discardPending();
        } else {
            afterCommand(caller);
            markPendingOutput(caller);
        }
        handleBlockedClients();
        while (!busy.active() && !caller.blocked() && !caller.closed() && !caller.closeAfterReply()
                && caller.hasDeferredInput()) {
            ConnectionHandler.process(this, caller, caller.pollDeferredInput());
        }
        processUnblockedClients();
        flushPendingOutput();
    }

    /**
     * Redis's resetClient for CLIENT REPLY SKIP: the command after SKIP runs silently, and the one after that
     * is heard again.
     */
    private static void afterCommand(ClientConnection client) {
        ClientConnection.ReplyMode mode = client.replyMode();
        if (mode == ClientConnection.ReplyMode.SKIP) {
            client.replyMode(ClientConnection.ReplyMode.ON);
            client.reply().enabled(true);
        } else if (mode == ClientConnection.ReplyMode.SKIP_NEXT) {
            client.replyMode(ClientConnection.ReplyMode.SKIP);
            client.reply().enabled(false);
        }
    }

    private void dispatch(ClientConnection client, byte[][] args) {
        if (interceptor != null && Interception.handled(interceptor, client, args)) {
            return; // the interceptor answered the call or cut the connection: the command does not run
        }
        CommandSpec spec = table.lookup(args[0]);
        if (spec == null) {
            rejectCall(client, null, unknownCommand(args));
            return;
        }
        if (spec.hasSubcommands() && args.length >= 2) {
            CommandSpec sub = spec.subcommands().get(CommandTable.lowerAscii(args[1]));
            if (sub == null) {
                rejectCall(client, spec.fullName(), "ERR unknown subcommand '" + truncate(text(args[1]), 128) + "'. Try "
                        + spec.name().toUpperCase() + " HELP.");
                return;
            }
            spec = sub;
        }
        if (!spec.arityAccepts(args.length)) {
            rejectCall(client, spec.fullName(), RedisError.wrongArity(spec.fullName()).getMessage());
            return;
        }
        if (!client.authenticated() && !spec.has(CommandFlag.NO_AUTH)) {
            rejectCall(client, spec.fullName(), RedisError.NOAUTH.getMessage());
            return;
        }
        if (!allowedInPubSubContext(client, spec)) {
            rejectCall(client, spec.fullName(), "ERR Can't execute '" + spec.fullName() + "': only (P|S)SUBSCRIBE / "
                    + "(P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context");
            return;
        }
        if (client.multiState().active() && spec.has(CommandFlag.NO_MULTI)) {
            rejectCall(client, spec.fullName(), "ERR Command not allowed inside a transaction");
            return;
        }
        if (busy.active() && !spec.has(CommandFlag.ALLOW_BUSY)) {
            rejectCall(client, spec.fullName(), busy.rejection());
            return;
        }
        if (queuesInTransaction(client, spec)) {
            client.multiState().queue(args, spec);
            client.reply().simple("QUEUED");
            return;
        }
        call(client, args, spec);
    }

    /** Between MULTI and EXEC everything is queued but the commands that steer the transaction itself. */
    private static boolean queuesInTransaction(ClientConnection client, CommandSpec spec) {
        if (!client.multiState().active()) {
            return false;
        }
        return switch (spec.fullName()) {
            case "exec", "discard", "multi", "watch", "quit", "reset" -> false;
            default -> true;
        };
    }

    /** Commands a subscribed RESP2 connection may still send (RESP3 has no such limit: replies and pushes mix). */
    private static final java.util.Set<String> PUBSUB_CONTEXT_COMMANDS = java.util.Set.of("ping", "subscribe",
            "ssubscribe", "unsubscribe", "sunsubscribe", "psubscribe", "punsubscribe", "quit", "reset");

    private static boolean allowedInPubSubContext(ClientConnection client, CommandSpec spec) {
        return client.protocol() != 2 || !client.subscriptions().active()
                || PUBSUB_CONTEXT_COMMANDS.contains(spec.fullName());
    }

    /** The user's interceptor (RedisSimulator.Builder#interceptor), or null: then dispatch pays one null test. */
    private CommandInterceptor interceptor;

    /** Installs the interceptor that sees every command clients send (null for none); engine thread only. */
    public void interceptor(CommandInterceptor interceptor) {
        this.interceptor = interceptor;
    }

    /**
     * A command refused before it ran: counted as rejected (INFO stats, commandstats, errorstats). Inside MULTI
     * the refusal dooms the transaction; a refused EXEC discards it (Redis's rejectCommand / execCommandAbort).
     */
    private void rejectCall(ClientConnection client, String fullName, String message) {
        if (client.multiState().active()) {
            client.multiState().markDirtyExec();
        }
        if ("exec".equals(fullName)) {
            discardTransaction(client);
            String reason = message.startsWith("ERR ") ? message.substring(4) : message;
            message = "EXECABORT Transaction discarded because of: " + reason;
        }
        stats.countRejected(fullName);
        stats.countError(message);
        client.reply().error(message);
    }

    // ---- transactions ----

    /**
     * Runs one queued command of an EXEC through the same path as a command of its own (stats, errors in
     * place), but without the after-command work, which runs once after the whole EXEC.
     */
    public void callQueued(ClientConnection client, byte[][] args, CommandSpec spec) {
        boolean denied = client.denyBlocking();
        client.denyBlocking(true); // CLIENT_DENY_BLOCKING: inside EXEC the blocking commands never block
        try {
            call(client, args, spec);
        } finally {
            client.denyBlocking(denied);
        }
    }

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

    private void call(ClientConnection client, byte[][] args, CommandSpec spec) {
        long started = System.nanoTime();
        boolean failed = false;
        try {
            spec.handler().execute(context.reset(client, args, spec));
        } catch (RedisError e) {
            failed = true;
            stats.failedCalls++;
            stats.countError(e.getMessage());
            client.reply().error(e.getMessage());
        } catch (RuntimeException bug) {
            // A defect of ours must not take the connection (or the server) down: answer an error, keep the
            // trace for whoever reports it.
            failed = true;
            stats.failedCalls++;
            bug.printStackTrace();
            client.reply().error("ERR redsim internal error in '" + spec.fullName() + "': " + bug);
        }
        // A script past its time limit: the script thread owns the stats now; BusyMode counts the call at its end.
        // (blocked() first: the script thread calls this for its own client, which is never blocked.)
        if (client.blocked() && busy.isCaller(client)) {
            return;
        }
        stats.commandsProcessed++;
        stats.countCall(spec.fullName(), (System.nanoTime() - started) / 1000, failed);
        client.touch(time.millis(), spec.fullName());
    }

    /** Redis's text: the name, then up to 128 characters of the arguments, each quoted and followed by a space. */
    static String unknownCommand(byte[][] args) {
        StringBuilder rest = new StringBuilder();
        for (int i = 1; i < args.length && rest.length() < 128; i++) {
            String arg = text(args[i]);
            rest.append('\'').append(truncate(arg, 128 - rest.length())).append("' ");
        }
        return "ERR unknown command '" + truncate(text(args[0]), 128) + "', with args beginning with: " + rest;
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    // ---- keyspace effects ----

    /** Redis's signalModifiedKey: WATCH invalidation hooks in here. */
    public void signalModifiedKey(int db, Bytes key) {
        watchedKeys.touch(db, key);
        blocked.keyChanged(db, key);
    }

    /**
     * Redis's signalFlushedDb / touchAllWatchedKeysInDb: every key of a database may have changed at once
     * (FLUSHDB, FLUSHALL, SWAPDB). WATCH hooks in here with the transactions issue.
     */
    public void signalFlushedDb(int db) {
        watchedKeys.touchAllInDb(db, null);
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

    /** Redis's dbAdd notifies "new" (class n) whenever a key is created. */
    @Override
    public void added(Database db, Bytes key) {
        notifyKeyspaceEvent(KeyspaceEvents.NEW, "new", key, db.id());
    }

    public void addDirty(long changes) {
        stats.dirty += changes;
    }

    @Override
    public void expired(Database db, Bytes key) {
        stats.expiredKeys++;
        signalModifiedKey(db.id(), key);
        notifyKeyspaceEvent(KeyspaceEvents.EXPIRED, "expired", key, db.id());
    }

    /** Keys one active-expiry round may remove per database, to bound the pause it causes. */
    private static final int ACTIVE_EXPIRE_LIMIT = 10_000;

    /** One round of active expiry over all databases (serverCron's activeExpireCycle, run at hz 10). */
    public void activeExpireCycle() {
        if (busy.active()) {
            return; // timers wait while a script runs on (the script thread owns the keyspace)
        }
        for (Database db : databases) {
            db.sweepExpired(ACTIVE_EXPIRE_LIMIT);
        }
        flushPendingOutput(); // "expired" notifications to subscribers
    }

    /** serverCron's samples for the instantaneous rates in INFO; skipped while a script runs on, as timers are. */
    public void sampleRates() {
        if (!busy.active()) {
            stats.sampleRates();
        }
    }

    /** Removes everything whose time has passed, in every database (after a test moves the clock). */
    public void expireAllDue() {
        if (busy.active()) {
            return;
        }
        for (Database db : databases) {
            db.sweepAllExpired();
        }
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
     * {@link #execute}): serves clients blocked on keys the command made ready (handleClientsBlockedOnKeys).
     */
    public void handleBlockedClients() {
        if (blocked.hasReadyKeys() && !busy.active()) { // as Redis, not while a script runs on
            blocked.serveReadyKeys(this, context);
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
                    ConnectionHandler.process(this, woken, woken.pollDeferredInput());
                }
            }
        } finally {
            runningUnblockedInput = false;
        }
    }

    /** Times out blocked clients whose deadline passed on the simulator clock; run by a timer and by advanceTime. */
    public void checkBlockedTimeouts() {
        if (blocked.countWithTimeout() == 0 || busy.active()) {
            return;
        }
        blocked.timeOut(this, time.millis());
        processUnblockedClients();
        flushPendingOutput();
    }
}
