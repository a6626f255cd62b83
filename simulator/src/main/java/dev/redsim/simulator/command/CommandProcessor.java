package dev.redsim.simulator.command;

import dev.redsim.simulator.engine.CallClock;
import dev.redsim.simulator.engine.Engine;
import dev.redsim.simulator.engine.InputProcessor;
import dev.redsim.simulator.engine.Propagation;
import dev.redsim.simulator.engine.Stats;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.intercept.CommandInterceptor;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.protocol.ChunkedCommand;
import dev.redsim.simulator.protocol.ProtocolError;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.util.ByteText;
import dev.redsim.simulator.util.KeyHashSlot;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Runs clients' commands against the table (Redis's processCommand and call in server.c): the checks that come
 * before a command (interceptor, lookup, arity, auth, MULTI, ACL, pub/sub context, busy script), queueing inside
 * MULTI, and the call itself, which gets a context of its own and is counted in the stats.
 */
public final class CommandProcessor implements InputProcessor {
    /** Commands a subscribed RESP2 connection may still send (RESP3 has no such limit: replies and pushes mix). */
    private static final Set<String> PUBSUB_CONTEXT_COMMANDS = Set.of("ping", "subscribe", "ssubscribe",
            "unsubscribe", "sunsubscribe", "psubscribe", "punsubscribe", "quit", "reset");

    /**
     * Read-only script runners that track nothing by themselves (as Redis 7.0.15): the commands their scripts
     * read with make the caller track the script's declared keys instead.
     */
    private static final Set<String> SCRIPT_RUNNERS_RO = Set.of("eval_ro", "evalsha_ro", "fcall_ro");

    private final Engine engine;
    private final CommandTable table;
    /** The calls under way on the engine thread, outermost first: a script's commands find their caller's here. */
    private final ArrayDeque<CommandContext> calls = new ArrayDeque<>();
    /**
     * The calls of the script running off the engine thread (on the script thread or a coroutine's), seeded with the
     * engine's calls when the script was handed over: once the engine goes busy its caller's command returns there
     * while the script goes on, so the two threads must not share one stack (see {@link #forkCallsForScriptThread}).
     */
    private ArrayDeque<CommandContext> scriptCalls;
    private Thread engineThreadOfScript;
    /** The user's interceptor (RedisSimulator.Builder#interceptor), or null: then dispatch pays one null test. */
    private CommandInterceptor interceptor;
    /** Whether a call is denyoom: its command's flag, except where a script's flags decide (set by scripting). */
    /** Null: the command's own DENYOOM flag decides (a server with scripting sets its rule at start). */
    private DenyOomRule denyOomRule;

    /** Decides whether a call may grow memory, for the maxmemory check before it runs. */
    @FunctionalInterface
    public interface DenyOomRule {
        boolean denyOom(CommandSpec spec, byte[][] args);
    }

    /** Redis's own text, which clients match. */
    public static final String OOM = "OOM command not allowed when used memory > 'maxmemory'.";

    /** The ACL (set while the server is wired), or null: then every client may run everything. */
    private AccessControl access;
    /** A cluster node's slot check (set while a cluster is wired), or null on a standalone server. */
    private ClusterGate cluster;

    /** Binds the processor to its engine, which from now on hands it every client's input. */
    public CommandProcessor(Engine engine, CommandTable table) {
        this.engine = engine;
        this.table = table;
        engine.input(this);
    }

    public Engine engine() {
        return engine;
    }

    public CommandTable table() {
        return table;
    }

    /** Installs the interceptor that sees every command clients send (null for none); engine thread only. */
    public void interceptor(CommandInterceptor interceptor) {
        this.interceptor = interceptor;
    }

    /** Installs the rule that decides denyoom for calls whose flags depend on a script (EVAL, FCALL). */
    public void denyOomRule(DenyOomRule rule) {
        this.denyOomRule = rule;
    }

    /** Installs the ACL that checks every command before it runs; engine thread only. */
    public void accessControl(AccessControl access) {
        this.access = access;
    }

    public AccessControl accessControl() {
        return access;
    }

    /** The cluster node's slot check, or null on a standalone server (scripts check their commands with it). */
    public ClusterGate clusterGate() {
        return cluster;
    }

    /** Makes this server a cluster node: calls with keys it does not serve are redirected; engine thread only. */
    public void clusterGate(ClusterGate gate) {
        this.cluster = gate;
    }

    /** Runs one decoded message of a client: a command, or a protocol error that closes the connection. */
    @Override
    public void process(ClientConnection client, Object message) {
        if (message instanceof byte[][] args) {
            execute(client, args);
        } else if (message instanceof ChunkedCommand command) {
            execute(client, command.args(), command);
        } else if (message instanceof ProtocolError error) {
            Engine.protocolError(client, error);
        }
    }

    /** Runs one command for a client, writing its reply (processCommand + call in server.c). */
    public void execute(ClientConnection client, byte[][] args) {
        execute(client, args, null);
    }

    /** As {@link #execute(ClientConnection, byte[][])}; {@code chunked}: the command's value came in chunks, or null. */
    private void execute(ClientConnection client, byte[][] args, ChunkedCommand chunked) {
        engine.tracking().currentClient(client);
        if (client.replica()) {
            executeForReplica(client, chunked != null ? chunked.gathered() : args);
            return;
        }
        dispatch(client, args, keptInChunks(client, chunked));
        // ASKING covers the next command only (or the transaction it opens), as Redis's resetClient clears it
        if (client.asking() && !client.multiState().active() && !isAskingCommand(args[0])) {
            client.asking(false);
        }
        // CLIENT CACHING covers the next command only (a whole transaction; CLIENT subcommands leave it), as
        // Redis's resetClient clears it.
        if (client.tracking().caching() && !client.multiState().active() && !isClientCommand(args[0])) {
            client.tracking().caching(false);
        }
        if (engine.busy().isCaller(client)) {
            return; // its script went on past the time limit: what follows runs when it ends (resumeAfterScript)
        }
        engine.afterCommand(client);
        engine.handleBlockedClients();
        engine.tracking().currentClient(null);
    }

    private static boolean isAskingCommand(byte[] name) {
        return name.length == 6 && new String(name, StandardCharsets.US_ASCII).equalsIgnoreCase("asking");
    }

    private static boolean isClientCommand(byte[] name) {
        return name.length == 6 && new String(name, StandardCharsets.US_ASCII).equalsIgnoreCase("client");
    }

    /**
     * A replica's own commands (REPLCONF ACK, PING) run, but nothing is written back on the link: its output is the
     * replication stream alone, as Redis never replies to a CLIENT_SLAVE.
     */
    private void executeForReplica(ClientConnection client, byte[][] args) {
        boolean enabled = client.reply().enabled();
        client.reply().enabled(false);
        try {
            dispatch(client, args, null);
        } finally {
            client.reply().enabled(enabled);
        }
        engine.handleBlockedClients();
    }

    /**
     * A value stays in chunks only while nothing reads it whole (decision 0048): no interceptor, no MONITOR, no
     * replica fed, no MULTI queue; else it is put in one array now, and the command is an ordinary one. Null when so.
     */
    private ChunkedCommand keptInChunks(ClientConnection client, ChunkedCommand chunked) {
        if (chunked == null) {
            return null;
        }
        if (interceptor != null || engine.monitors().active() || engine.replication().feeds()
                || client.multiState().active()) {
            chunked.gathered();
            return null;
        }
        return chunked;
    }

    private void dispatch(ClientConnection client, byte[][] args, ChunkedCommand chunked) {
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
                rejectCall(client, spec.fullName(), "ERR unknown subcommand '" + ByteText.cString(args[1], 128)
                        + "'. Try " + spec.name().toUpperCase() + " HELP.");
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
        if (client.multiState().active() && spec.has(CommandFlag.NO_MULTI)) {
            rejectCall(client, spec.fullName(), "ERR Command not allowed inside a transaction");
            return;
        }
        String refusal = access == null ? null : access.refuseCommand(client, spec, args);
        if (refusal != null) {
            rejectCall(client, spec.fullName(), refusal);
            return;
        }
        // a replica applies its master's stream unchecked (mustObeyClient)
        if (cluster != null && !client.masterLink() && refusedByCluster(client, spec, args)) {
            return;
        }
        if (!engine.evictClientsBefore(client)) {
            return; // client eviction took this very client: its command does not run
        }
        if (engine.maxmemory() != 0 && !engine.busy().active() && refusedForMemory(client, spec, args)) {
            return;
        }
        if (writesOnReadOnlyReplica(client, spec)) {
            rejectCall(client, spec.fullName(), "READONLY You can't write against a read only replica.");
            return;
        }
        if (!allowedInPubSubContext(client, spec)) {
            rejectCall(client, spec.fullName(), "ERR Can't execute '" + spec.fullName() + "': only (P|S)SUBSCRIBE / "
                    + "(P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context");
            return;
        }
        // A MONITOR client is a replica to Redis (CLIENT_SLAVE): it may not read or write the keyspace.
        if (engine.monitors().isMonitor(client) && (spec.has(CommandFlag.WRITE) || spec.has(CommandFlag.READONLY)
                || spec.has(CommandFlag.MAY_REPLICATE))) {
            rejectCall(client, spec.fullName(), "ERR Replica can't interact with the keyspace");
            return;
        }
        if (engine.busy().active() && !spec.has(CommandFlag.ALLOW_BUSY)) {
            rejectCall(client, spec.fullName(), engine.busy().rejection());
            return;
        }
        if (engine.pause().holds(mayWrite(client, spec)) && !engine.monitors().isMonitor(client)) {
            engine.pause().postpone(client, chunked != null ? chunked : args); // CLIENT PAUSE: it runs at its end
            return;
        }
        if (engine.tracking().trackingClients() > 0) {
            engine.tracking().limitUsedSlots(); // processCommand keeps the tracking table within its limit
        }
        if (queuesInTransaction(client, spec)) {
            client.multiState().queue(args, spec, denyOom(client, spec, args));
            client.reply().simple("QUEUED");
            return;
        }
        call(calls, client, args, spec, chunked);
    }

    /**
     * processCommand's maxmemory step: evicts what the policy allows; when memory stays over the limit, a command
     * that may grow memory is refused with -OOM (and so is everything inside MULTI but the commands that end it,
     * since queueing takes memory too). Remembers the verdict for the scripts the command may run. True when refused.
     */
    private boolean refusedForMemory(ClientConnection client, CommandSpec spec, byte[][] args) {
        boolean outOfMemory = !engine.performEvictions();
        boolean rejectOnOom = denyOom(client, spec, args);
        if (client.multiState().active()) {
            switch (spec.fullName()) {
                case "exec", "discard", "quit", "reset" -> { }
                default -> rejectOnOom = true;
            }
        }
        if (outOfMemory && rejectOnOom) {
            rejectCall(client, spec.fullName(), OOM);
            return true;
        }
        engine.preCommandOom(outOfMemory);
        return false;
    }

    /** Whether this call may grow memory (Redis's CMD_DENYOOM, with EXEC taking its queued commands' flags). */
    private boolean denyOom(ClientConnection client, CommandSpec spec, byte[][] args) {
        if (spec.fullName().equals("exec")) {
            return client.multiState().queuedDenyOom();
        }
        return denyOomRule == null ? spec.has(CommandFlag.DENYOOM) : denyOomRule.denyOom(spec, args);
    }

    /**
     * Cluster redirection (processCommand's getNodeByQuery step, after the ACL): a call whose keys this node does not
     * serve, or whose keys span slots, is answered with MOVED or CROSSSLOT; inside MULTI that dooms the transaction,
     * and a refused EXEC discards it (with the cluster's error, not EXECABORT).
     */
    private boolean refusedByCluster(ClientConnection client, CommandSpec spec, byte[][] args) {
        boolean exec = spec.fullName().equals("exec");
        client.clusterSlot(-1);
        // shard channels (SSUBSCRIBE, SPUBLISH, ...) are no keys to the table but hash to slots as keys do
        if (!exec && !spec.hasKeyArguments() && !spec.has(CommandFlag.PUBSUB)) {
            return false;
        }
        java.util.List<byte[]> keys = new java.util.ArrayList<>();
        boolean readOnly;
        if (exec) {
            readOnly = true;
            for (var queued : client.multiState().queued()) {
                CommandSpec queuedSpec = (CommandSpec) queued.command();
                for (int index : queuedSpec.clusterKeyIndexes(queued.args())) {
                    keys.add(queued.args()[index]);
                }
                readOnly &= !queuedSpec.has(CommandFlag.WRITE); // getNodeByQuery's is_write_command
            }
        } else {
            for (int index : spec.clusterKeyIndexes(args)) {
                keys.add(args[index]);
            }
            readOnly = !spec.has(CommandFlag.WRITE); // EVAL, neither a read nor a write, is served by a replica too
        }
        String refusal = cluster.refusal(client, keys, readOnly, spec.has(CommandFlag.ASKING),
                spec.fullName().equals("migrate"), spec.has(CommandFlag.PUBSUB));
        if (refusal == null) {
            // the slot a script run by this call may touch without declaring its keys (scriptVerifyClusterState)
            client.clusterSlot(keys.isEmpty() ? -1 : KeyHashSlot.of(keys.get(0)));
            return false;
        }
        reject(client, spec.fullName(), refusal, false); // a refused EXEC answers the cluster's error itself
        return true;
    }

    /**
     * processCommand's read-only replica step: a replica (replica-read-only yes) refuses a write from anyone but its
     * master (a write command, or EXEC of a transaction holding one).
     */
    private boolean writesOnReadOnlyReplica(ClientConnection client, CommandSpec spec) {
        if (engine.replication().upstream() == null || client.masterLink()
                || !"yes".equals(engine.config().get("replica-read-only"))) {
            return false;
        }
        if (spec.has(CommandFlag.WRITE)) {
            return true;
        }
        if (spec.fullName().equals("exec")) {
            for (var queued : client.multiState().queued()) {
                if (((CommandSpec) queued.command()).has(CommandFlag.WRITE)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Redis's is_may_replicate_command: a write, a may-replicate command, or an EXEC of a transaction with one. */
    private static boolean mayWrite(ClientConnection client, CommandSpec spec) {
        if (writes(spec)) {
            return true;
        }
        if (spec.fullName().equals("exec")) {
            for (var queued : client.multiState().queued()) {
                if (writes((CommandSpec) queued.command())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean writes(CommandSpec spec) {
        return spec.has(CommandFlag.WRITE) || spec.has(CommandFlag.MAY_REPLICATE);
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

    private static boolean allowedInPubSubContext(ClientConnection client, CommandSpec spec) {
        return client.protocol() != 2 || !client.subscriptions().active()
                || PUBSUB_CONTEXT_COMMANDS.contains(spec.fullName());
    }

    /**
     * A command refused before it ran: counted as rejected (INFO stats, commandstats, errorstats). Inside MULTI
     * the refusal dooms the transaction; a refused EXEC discards it (Redis's rejectCommand / execCommandAbort).
     */
    private void rejectCall(ClientConnection client, String fullName, String message) {
        reject(client, fullName, message, true);
    }

    /** As {@link #rejectCall}; {@code execAbort} says whether a refused EXEC's error is worded as EXECABORT. */
    private void reject(ClientConnection client, String fullName, String message, boolean execAbort) {
        if (client.multiState().active()) {
            client.multiState().markDirtyExec();
        }
        if ("exec".equals(fullName)) {
            engine.discardTransaction(client);
            if (execAbort) {
                String reason = message.startsWith("ERR ") ? message.substring(4) : message;
                message = "EXECABORT Transaction discarded because of: " + reason;
            }
        }
        Stats stats = engine.stats();
        stats.countRejected(fullName);
        stats.countError(message);
        client.reply().error(message);
    }

    /**
     * Runs a command from inside another one (a queued command of EXEC, a script's redis.call) through the same
     * path as a command of its own (stats, errors in place), with a context of its own, but without the
     * after-command work, which runs once after the outer command.
     */
    public void callNested(ClientConnection client, byte[][] args, CommandSpec spec) {
        callNested(calls, client, args, spec);
    }

    /**
     * A script's command (redis.call): nested in the engine's calls when the script runs on the engine thread, in
     * the script's own copy of them when it runs on the script thread or in one of its coroutines.
     */
    public void callFromScript(ClientConnection client, byte[][] args, CommandSpec spec) {
        ArrayDeque<CommandContext> stack = scriptCalls != null && Thread.currentThread() != engineThreadOfScript
                ? scriptCalls : calls;
        callNested(stack, client, args, spec);
    }

    /**
     * A script is about to run off the engine thread (engine thread): its commands get a copy of the calls under
     * way (its caller's EVAL or FCALL, and the EXEC around it), which stays theirs after the caller's command has
     * returned on the engine thread because the engine went busy (decision 0030). Before, both threads pushed and
     * popped one ArrayDeque, and a script's command after that return no longer found its caller.
     */
    public void forkCallsForScriptThread() {
        scriptCalls = new ArrayDeque<>(calls);
        engineThreadOfScript = Thread.currentThread();
    }

    /** The script that ran off the engine thread ended (engine thread): its calls are dropped. */
    public void scriptThreadCallsEnded() {
        scriptCalls = null;
        engineThreadOfScript = null;
    }

    private void callNested(ArrayDeque<CommandContext> stack, ClientConnection client, byte[][] args, CommandSpec spec) {
        boolean denied = client.denyBlocking();
        client.denyBlocking(true); // CLIENT_DENY_BLOCKING: inside EXEC and scripts blocking commands never block
        try {
            call(stack, client, args, spec, null);
        } finally {
            client.denyBlocking(denied);
        }
    }

    /**
     * EXEC's check of one queued command against the rules of now (they may have changed since it was queued):
     * false when it may not run, its refusal then answered in its place (and counted as an error reply).
     */
    public boolean permittedAtExec(ClientConnection client, byte[][] args, CommandSpec spec) {
        String refusal = access == null ? null : access.refuseQueued(client, spec, args);
        if (refusal == null) {
            return true;
        }
        engine.stats().countError(refusal);
        client.reply().error(refusal);
        return false;
    }

    private void call(ArrayDeque<CommandContext> calls, ClientConnection client, byte[][] args, CommandSpec spec,
                      ChunkedCommand chunked) {
        boolean outermost = calls.isEmpty();
        CommandContext ctx = new CommandContext(this, client, args, spec, chunked);
        calls.addLast(ctx); // the call's own context says who runs what: no record of its own per call
        if (outermost) {
            engine.tracking().executing(true);
        }
        // One clock reading for the call's access times, expiry checks and last interaction (decision 0037); not
        // tied to `outermost`: a busy script's calls come after its EVAL's call has returned on the engine thread.
        CallClock clock = engine.callClock();
        boolean ownsClock = clock.hold();
        try {
            timedCall(ctx, client, args, spec, chunked);
            if (spec.has(CommandFlag.READONLY) && engine.tracking().trackingClients() > 0) {
                rememberReadKeys(calls, client, spec);
            }
        } finally {
            if (ownsClock) {
                clock.release();
            }
            calls.removeLast();
            if (outermost) {
                engine.tracking().executing(false);
                // afterCommand: invalidations this command caused for its own client follow its reply
                engine.tracking().afterCommand();
            }
        }
    }

    /**
     * call()'s trackingRememberKeys: a read-only command makes its client track the keys it named; run by a
     * script, it makes the script's caller track the keys the script declared (its caller's command's keys), as
     * Redis 7.0 does. EVAL_RO and its kind track nothing by themselves.
     */
    private void rememberReadKeys(ArrayDeque<CommandContext> calls, ClientConnection client, CommandSpec spec) {
        if (SCRIPT_RUNNERS_RO.contains(spec.fullName())) {
            return;
        }
        ClientConnection caller = calls.peekFirst().client();
        if (!caller.tracking().on()) {
            return;
        }
        CommandContext callerCommand = calls.peekLast();
        if (caller != client) {
            for (Iterator<CommandContext> it = calls.descendingIterator(); it.hasNext(); ) {
                CommandContext frame = it.next();
                if (frame.client() == caller) {
                    callerCommand = frame;
                    break;
                }
            }
        }
        if (callerCommand.spec().has(CommandFlag.PUBSUB)) {
            return; // shard channels are keys to the table, not to caches
        }
        engine.tracking().rememberKeys(caller, callerCommand.spec().keyIndexes(callerCommand.args()),
                callerCommand.args());
    }

    private void timedCall(CommandContext ctx, ClientConnection client, byte[][] args, CommandSpec spec,
                           ChunkedCommand chunked) {
        // Before the clock starts: the first call of a family binds it (decision 0026), which is no part of the call.
        CommandHandler handler = spec.handler();
        long started = System.nanoTime();
        boolean failed = false;
        Stats stats = engine.stats();
        // The skip_monitor commands are the script runners: Redis feeds them to monitors itself, before the
        // script, so that the script's own calls follow them.
        if (spec.has(CommandFlag.SKIP_MONITOR) && engine.monitors().active()) {
            engine.monitors().feed(client, client.db(), args);
        }
        Propagation propagation = engine.propagation();
        long dirtyBefore = stats.dirty;
        propagation.enterCall();
        // A write's keys are measured once, when it ends (an error may come after a change: SORT converts, then
        // fails); their stores and change signals leave the measuring to that (Database.measureAtCallEnd).
        boolean writes = spec.has(CommandFlag.WRITE);
        Database written = writes ? engine.database(client.db()) : null;
        KeyRange range = writes ? spec.keyRange() : null;
        List<KeyRef> keyList = writes && range == null ? spec.keys(args) : null;
        Database.Deferral outerMeasured = writes ? deferMeasuring(written, args, range, keyList) : null;
        try {
            handler.execute(ctx);
        } catch (RedisError e) {
            failed = true;
            stats.failedCalls++;
            if (!e.counted()) {
                stats.countError(e.getMessage());
            }
            client.reply().error(e.getMessage());
        } catch (RuntimeException bug) {
            // A defect of ours must not take the connection (or the server) down: answer an error, keep the
            // trace for whoever reports it.
            failed = true;
            stats.failedCalls++;
            bug.printStackTrace();
            client.reply().error("ERR redsim internal error in '" + spec.fullName() + "': " + bug);
        } finally {
            if (writes) {
                written.callEnded(outerMeasured);
                remeasureKeys(written, ctx, range, keyList);
            }
        }
        // A script past its time limit: the script thread owns the stats now; BusyMode counts the call at its end,
        // and closes its propagation unit then. (blocked() first: the script thread calls this for its own client,
        // which is never blocked.)
        if (client.blocked() && engine.busy().isCaller(client)) {
            return;
        }
        propagate(ctx, stats.dirty != dirtyBefore);
        propagation.exitCall();
        if (!propagation.inCall()) {
            client.writeOffset(engine.replication().offset()); // what WAIT waits for (c->woff)
            engine.replication().sendGetAck();
        }
        long micros = (System.nanoTime() - started) / 1000;
        stats.commandsProcessed++;
        stats.countCall(spec.counters(stats), micros, failed);
        if (!client.blocked()) { // as the slow log: a blocked command counts when it is served
            engine.latency().commandRan(spec.fullName(), spec.has(CommandFlag.FAST), micros);
        }
        client.touch(engine.callClock().millis(), spec.fullName());
        // After it ran (SELECT shows its new database, AUTH its redacted password); admin commands are never shown.
        if (engine.monitors().active() && !spec.has(CommandFlag.SKIP_MONITOR) && !spec.has(CommandFlag.ADMIN)) {
            engine.monitors().feed(client, client.db(), RedactedArguments.of(spec.fullName(), args));
        }
        // A command that blocked is not logged (Redis logs it when it is served; a timed-out one never).
        if (!spec.has(CommandFlag.SKIP_SLOWLOG) && !client.blocked() && engine.slowLog().logs(micros)) {
            // a value still in chunks is logged from its head and length (its place in args is null; the commands that
            // keep values in chunks have nothing to redact)
            engine.slowLog().record(RedactedArguments.of(spec.fullName(), args), chunked, micros,
                    engine.callClock().millis(), client.address(), client.name());
        }
    }

    /**
     * The keys of a write call whose measuring waits for the call's end: all of a key range of up to
     * {@link #DEFERRED_KEYS} keys (the database tests each store against them: a bounded span keeps that O(1)), else
     * the first key alone.
     */
    private static Database.Deferral deferMeasuring(Database db, byte[][] args, KeyRange range, List<KeyRef> keyList) {
        if (range != null) {
            int first = range.first(args);
            if (first < 0) {
                return db.measureAtCallEnd(null, 0, -1, 1);
            }
            int last = range.last(args);
            int step = range.step();
            return db.measureAtCallEnd(args, first, (last - first) / step < DEFERRED_KEYS ? last : first, step);
        }
        if (keyList == null || keyList.isEmpty()) {
            return db.measureAtCallEnd(null, 0, -1, 1);
        }
        int first = keyList.get(0).index();
        return db.measureAtCallEnd(args, first, first, 1);
    }

    /** How many keys of a range may wait for the call's end (see {@link #deferMeasuring}). */
    private static final int DEFERRED_KEYS = 16;

    /**
     * After a write, the keys it named are measured again, so that used_memory follows values changed in place
     * (keys it stored or removed are accounted by the database as that happens). O(keys of the call).
     */
    private static void remeasureKeys(Database db, CommandContext ctx, KeyRange range, List<KeyRef> keyList) {
        byte[][] args = ctx.args();
        if (range != null) {
            int last = range.last(args);
            if (last >= 0) {
                for (int i = range.first(args); i <= last; i += range.step()) {
                    db.remeasure(ctx.key(i)); // the handler's own key when it named one: its hash is kept
                }
            }
        } else if (keyList != null) {
            for (KeyRef key : keyList) {
                db.remeasure(Bytes.wrap(args[key.index()]));
            }
        }
    }

    /**
     * call()'s propagation: a call that changed data (or forces it: FLUSHALL, PUBLISH) goes to the replicas as
     * its arguments or their rewrite, unless it prevented that (scripts, whose effects went instead) or is EXEC,
     * whose queued commands went one by one.
     */
    private void propagate(CommandContext ctx, boolean changedData) {
        if (ctx.propagationPrevented() || spec(ctx).equals("exec")) {
            return;
        }
        if (changedData || ctx.propagationForced()) {
            engine.propagation().propagate(ctx.client().db(), ctx.propagatedArgs());
        }
    }

    private static String spec(CommandContext ctx) {
        return ctx.spec().fullName();
    }

    /**
     * Redis's text: the name, then the arguments, each quoted and followed by a space, while the list is shorter
     * than 128 bytes, each cut to what keeps it within 128 (counted in bytes, arguments read as C strings).
     */
    static String unknownCommand(byte[][] args) {
        StringBuilder rest = new StringBuilder();
        int restBytes = 0;
        for (int i = 1; i < args.length && restBytes < 128; i++) {
            String arg = ByteText.cString(args[i], 128 - restBytes);
            rest.append('\'').append(arg).append("' ");
            restBytes += ByteText.encode(arg).length + 3;
        }
        return "ERR unknown command '" + ByteText.cString(args[0], 128) + "', with args beginning with: " + rest;
    }
}
