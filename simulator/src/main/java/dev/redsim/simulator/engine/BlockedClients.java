package dev.redsim.simulator.engine;

import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.keyspace.RedisValue;
import dev.redsim.simulator.server.ClientConnection;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.TreeSet;

/**
 * Clients blocked on keys (Redis's blocked.c): who waits on which key of which database, in the order they
 * blocked; which keys became ready since the last serving round; and when each wait times out. Touched only on
 * the engine thread.
 */
public final class BlockedClients {
    /**
     * Serves a blocked client from a key that became ready: the blocked command (which keeps its own context
     * while it waits) does the pop (or move) with all its side effects and writes the reply. Returns false,
     * changing nothing, when the key holds nothing for this client (missing, empty, another type).
     */
    @FunctionalInterface
    public interface KeyServer {
        boolean serve(Bytes key);
    }

    /**
     * One blocked call: the client, its command, the keys it waits on and its deadline (0: none). A waiter with a
     * {@code readsType} is also served when its key stops holding that type (deleted or overwritten), as Redis
     * wakes a blocked XREADGROUP whose stream goes.
     */
    /** Waiters order by deadline, then by when they blocked (the deadlines set's order). */
    private static final class Waiter implements Comparable<Waiter> {
        final ClientConnection client;
        final int db;
        final Bytes[] keys;
        final long deadline;
        final long order;
        final String command;
        final KeyServer server;
        final Class<? extends RedisValue> readsType;
        /** What a wait on no key (WAIT) answers when its time runs out; null: the null reply of a blocking pop. */
        Runnable timeoutReply;

        Waiter(ClientConnection client, int db, Bytes[] keys, long deadline, long order, String command,
               KeyServer server, Class<? extends RedisValue> readsType) {
            this.client = client;
            this.db = db;
            this.keys = keys;
            this.deadline = deadline;
            this.order = order;
            this.command = command;
            this.server = server;
            this.readsType = readsType;
        }

        @Override
        public int compareTo(Waiter other) {
            // not Comparator.comparingLong(...).thenComparingLong(...): in a fresh JVM that chain spins a dozen
            // classes at every first start
            int byDeadline = Long.compare(deadline, other.deadline);
            return byDeadline != 0 ? byDeadline : Long.compare(order, other.order);
        }
    }

    private record ReadyKey(int db, Bytes key) {
    }

    private final Database[] databases;
    /** Per database: key -> waiters in the order they blocked (first blocked, first served). */
    private final Map<Bytes, LinkedHashSet<Waiter>>[] waitersByDb;
    private final Map<ClientConnection, Waiter> byClient = new IdentityHashMap<>();
    /** Keys that may serve someone, in the order they became ready (Redis's server.ready_keys). */
    private final LinkedHashSet<ReadyKey> readyKeys = new LinkedHashSet<>();
    private final TreeSet<Waiter> deadlines = new TreeSet<>();
    /** Clients unblocked since their queued input was last processed (server.unblocked_clients). */
    private final ArrayDeque<ClientConnection> unblocked = new ArrayDeque<>();
    private long nextOrder;

    @SuppressWarnings("unchecked")
    BlockedClients(Database[] databases) {
        this.databases = databases;
        this.waitersByDb = new Map[databases.length];
        for (int i = 0; i < databases.length; i++) {
            waitersByDb[i] = new HashMap<>();
        }
    }

    /** INFO's blocked_clients. */
    public int count() {
        return byClient.size();
    }

    /** INFO's clients_in_timeout_table: blocked clients with a deadline. */
    public int countWithTimeout() {
        return deadlines.size();
    }

    /**
     * Blocks a client on keys (blockForKeys): it stops executing commands until served, timed out, unblocked or
     * gone. {@code command} is the blocked command's full name (for the stats), {@code deadline} in simulator epoch
     * ms, 0 for none.
     */
    public void block(ClientConnection client, String command, Bytes[] keys, long deadline, KeyServer server) {
        block(client, command, keys, deadline, server, null);
    }

    /**
     * As {@link #block(ClientConnection, String, Bytes[], long, KeyServer)}, and the waiter is also served when a
     * key it waits on stops holding a {@code readsType} value (signalDeletedKeyAsReady).
     */
    public void block(ClientConnection client, String command, Bytes[] keys, long deadline, KeyServer server,
                      Class<? extends RedisValue> readsType) {
        Waiter waiter = new Waiter(client, client.db(), distinct(keys), deadline, nextOrder++, command, server,
                readsType);
        Map<Bytes, LinkedHashSet<Waiter>> waiters = waitersByDb[waiter.db];
        for (Bytes key : waiter.keys) {
            waiters.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(waiter);
        }
        byClient.put(client, waiter);
        if (deadline != 0) {
            deadlines.add(waiter);
        }
        client.blocked(true);
    }

    /**
     * Blocks a client on no key (WAIT, blocked for replicas' acknowledgements): it is released by
     * {@link #release}, or at its deadline (0: none) or by CLIENT UNBLOCK with {@code timeoutReply}'s answer.
     */
    public void blockWithoutKeys(ClientConnection client, String command, long deadline, Runnable timeoutReply) {
        block(client, command, new Bytes[0], deadline, key -> false, null);
        byClient.get(client).timeoutReply = timeoutReply;
    }

    /** A wait on no key got what it waited for (its reply is written): the client runs its queued input again. */
    public void release(Engine engine, ClientConnection client) {
        Waiter waiter = byClient.get(client);
        if (waiter != null) {
            engine.markPendingOutput(client);
            unblock(waiter);
        }
    }

    private static void timeoutReply(Waiter waiter) {
        if (waiter.timeoutReply != null) {
            waiter.timeoutReply.run();
        } else {
            waiter.client.reply().nullArray();
        }
    }

    private static Bytes[] distinct(Bytes[] keys) {
        LinkedHashSet<Bytes> unique = new LinkedHashSet<>(java.util.Arrays.asList(keys));
        return unique.size() == keys.length ? keys : unique.toArray(new Bytes[0]);
    }

    public boolean isBlocked(ClientConnection client) {
        return byClient.containsKey(client);
    }

    // ---- keys becoming ready ----

    /**
     * A key may now serve its waiters (Redis's signalKeyAsReady: a key was created, or a database swapped in or
     * emptied): when someone waits on it and it holds a value, it is queued for serving, and each waiter's server
     * decides whether that value serves it (a list for BLPOP, a stream for XREAD, renamed or moved into place
     * too); when it holds nothing, readers of a type it no longer holds hear of it.
     */
    public void keyReady(int db, Bytes key) {
        if (byClient.isEmpty() || !waitersByDb[db].containsKey(key)) {
            return;
        }
        RedisValue value = databases[db].peek(key);
        if (value != null || someoneLostTheirType(db, key, null)) {
            readyKeys.add(new ReadyKey(db, key));
        }
    }

    /**
     * A key was modified (signalModifiedKey): that wakes no one in Redis 7.0, except readers of a type the key no
     * longer holds (deleted or overwritten: signalDeletedKeyAsReady), who get their error.
     */
    public void keyModified(int db, Bytes key) {
        if (byClient.isEmpty() || !waitersByDb[db].containsKey(key)) {
            return;
        }
        if (someoneLostTheirType(db, key, databases[db].peek(key))) {
            readyKeys.add(new ReadyKey(db, key));
        }
    }

    /** Whether a waiter on the key reads a type the key no longer holds. */
    private boolean someoneLostTheirType(int db, Bytes key, RedisValue value) {
        for (Waiter waiter : waitersByDb[db].get(key)) {
            if (waiter.readsType != null && !waiter.readsType.isInstance(value)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Redis's signalKeyAsReady for values that wake their waiters explicitly (a stream after XADD): queues the key
     * for serving when someone waits on it.
     */
    public void keySignalled(int db, Bytes key) {
        if (!byClient.isEmpty() && waitersByDb[db].containsKey(key)) {
            readyKeys.add(new ReadyKey(db, key));
        }
    }

    /**
     * Every key of a database may have changed (SWAPDB, FLUSHDB): scans its waited keys for ready ones. Every key
     * that holds a value counts as ready, streams included (scanDatabaseForReadyKeys), and so does a key whose
     * waiters lost their type.
     */
    public void databaseChanged(int db) {
        if (byClient.isEmpty()) {
            return;
        }
        for (Bytes key : waitersByDb[db].keySet().toArray(new Bytes[0])) {
            keyReady(db, key);
        }
    }

    public boolean hasReadyKeys() {
        return !readyKeys.isEmpty();
    }

    /**
     * Serves clients blocked on ready keys (handleClientsBlockedOnKeys): key by key in the order they became
     * ready, each key's waiters first-blocked-first-served until it holds nothing more for them. Serving may make
     * more keys ready (BLMOVE pushes), which are served in the same round.
     */
    public void serveReadyKeys(Engine engine) {
        while (!readyKeys.isEmpty()) {
            Iterator<ReadyKey> first = readyKeys.iterator();
            ReadyKey ready = first.next();
            first.remove();
            LinkedHashSet<Waiter> waiters = waitersByDb[ready.db].get(ready.key);
            if (waiters == null) {
                continue;
            }
            for (Waiter waiter : waiters.toArray(new Waiter[0])) {
                if (byClient.get(waiter.client) != waiter) {
                    continue; // served or gone meanwhile
                }
                if (waiter.client.closed()) {
                    unblock(waiter); // killed, its connection not yet torn down: Redis has freed it already
                    continue;
                }
                if (serve(engine, waiter, ready.key)) {
                    unblock(waiter);
                }
            }
        }
    }

    private boolean serve(Engine engine, Waiter waiter, Bytes key) {
        boolean served;
        long started = System.nanoTime();
        // what serving one client propagates is one unit (a served XREADGROUP's XCLAIMs go in one MULTI)
        engine.propagation().enterCall();
        try {
            served = waiter.server.serve(key);
        } catch (RedisError e) {
            engine.stats().countError(e.getMessage());
            engine.stats().countFailedAfterBlock(waiter.command);
            waiter.client.reply().error(e.getMessage());
            served = true;
        } finally {
            engine.propagation().exitCall();
        }
        if (served) {
            engine.markPendingOutput(waiter.client);
            engine.latency().blockedCommandServed(waiter.command, (System.nanoTime() - started) / 1000);
        }
        return served;
    }

    // ---- leaving the blocked state otherwise ----

    /** Times out every wait whose deadline has come (handleBlockedClientsTimeout): a null reply. */
    public void timeOut(Engine engine, long now) {
        while (!deadlines.isEmpty() && deadlines.first().deadline <= now) {
            Waiter waiter = deadlines.first();
            timeoutReply(waiter);
            engine.markPendingOutput(waiter.client);
            unblock(waiter);
        }
    }

    /**
     * CLIENT UNBLOCK: wakes a blocked client as if it timed out, or with an -UNBLOCKED error. False when the
     * client is not blocked.
     */
    public boolean unblockByCommand(Engine engine, ClientConnection client, boolean withError) {
        Waiter waiter = byClient.get(client);
        if (waiter == null) {
            return false;
        }
        if (withError) {
            String message = "UNBLOCKED client unblocked via CLIENT UNBLOCK";
            engine.stats().countError(message);
            client.reply().error(message);
        } else {
            timeoutReply(waiter);
        }
        // Redis 7.0 counts the woken command as failed either way
        engine.stats().countFailedAfterBlock(waiter.command);
        engine.markPendingOutput(client);
        unblock(waiter);
        return true;
    }

    /** A blocked client disconnected: it is forgotten without a reply. */
    public void forget(ClientConnection client) {
        Waiter waiter = byClient.get(client);
        if (waiter != null) {
            unblock(waiter);
        }
        unblocked.remove(client);
    }

    private void unblock(Waiter waiter) {
        Map<Bytes, LinkedHashSet<Waiter>> waiters = waitersByDb[waiter.db];
        for (Bytes key : waiter.keys) {
            LinkedHashSet<Waiter> onKey = waiters.get(key);
            if (onKey != null) {
                onKey.remove(waiter);
                if (onKey.isEmpty()) {
                    waiters.remove(key);
                }
            }
        }
        byClient.remove(waiter.client);
        if (waiter.deadline != 0) {
            deadlines.remove(waiter);
        }
        waiter.client.blocked(false);
        if (!waiter.client.closed()) {
            unblocked.add(waiter.client);
        }
    }

    /** A client that waited for something else than keys (a CLIENT PAUSE) may run its queued commands again. */
    public void resumed(ClientConnection client) {
        unblocked.add(client);
    }

    public boolean hasUnblocked() {
        return !unblocked.isEmpty();
    }

    /** The next client unblocked since the last call, whose queued commands should now run; null when none. */
    public ClientConnection pollUnblocked() {
        return unblocked.poll();
    }
}
