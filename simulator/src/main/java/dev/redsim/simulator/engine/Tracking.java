package dev.redsim.simulator.engine;

import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.server.ClientTracking;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Server-assisted client-side caching (Redis's tracking.c). Two tables, as Redis keeps them:
 * <ul>
 * <li>the tracking table: key name (of any database: caching is not per database) to the ids of the clients that
 * read it; an entry is dropped once its invalidation is sent, so a client hears of a key once per read;</li>
 * <li>the prefix table of BCAST clients: each prefix with its clients and the keys under it modified since the
 * last broadcast (with who modified each, for NOLOOP), sent as one message per prefix before the event loop
 * sleeps ({@link #beforeSleep}).</li>
 * </ul>
 * Invalidations of the client whose command is running wait until its reply is written ({@link #afterCommand}),
 * as Redis's tracking_pending_keys. Messages go as RESP3 pushes, or to the REDIRECT client (a RESP2 one only
 * when it is subscribed, as a message on __redis__:invalidate). Engine thread only.
 */
public final class Tracking {
    private static final byte[] INVALIDATE = bytes("invalidate");
    private static final byte[] MESSAGE = bytes("message");
    private static final byte[] CHANNEL = bytes("__redis__:invalidate");
    private static final byte[] REDIR_BROKEN = bytes("tracking-redir-broken");
    private static final byte[] NULL_RESP2 = bytes("$-1\r\n"); // shared.null[2]: a null bulk
    private static final byte[] NULL_RESP3 = bytes("_\r\n");

    /** The keys of one BCAST prefix modified since the last broadcast, in byte order, and its clients. */
    private static final class Prefix {
        final TreeMap<Bytes, ClientConnection> modified = new TreeMap<>();
        final LinkedHashSet<ClientConnection> clients = new LinkedHashSet<>();
    }

    private final Engine engine;
    /** Key to the ids of the clients that may cache it; in insertion order, so the oldest keys go first. */
    private final LinkedHashMap<Bytes, LinkedHashSet<Long>> table = new LinkedHashMap<>();
    private final TreeMap<Bytes, Prefix> prefixes = new TreeMap<>();
    private long totalItems;
    private int trackingClients;
    /** Whether any client ever enabled tracking (Redis creates its tables then, and never frees them). */
    private boolean started;
    /** Redis's server.current_client and its CLIENT_EXECUTING_COMMAND flag. */
    private ClientConnection current;
    private boolean executing;
    /** Invalidations for {@link #current}, sent after its reply; null stands for a flush. */
    private final List<Bytes> pending = new ArrayList<>();
    /** How many times in a row the table stayed over tracking-table-max-keys (Redis's timeout_counter). */
    private int overLimitRounds;

    Tracking(Engine engine) {
        this.engine = engine;
    }

    // ---- clients turning tracking on and off ----

    /** CLIENT TRACKING ON with validated options (enableTracking). */
    public void enable(ClientConnection client, long redirect, boolean bcast, boolean optIn, boolean optOut,
                       boolean noLoop, List<Bytes> newPrefixes) {
        ClientTracking state = client.tracking();
        if (!state.on()) {
            trackingClients++;
        }
        started = true;
        state.enable(redirect, bcast, optIn, optOut, noLoop);
        if (bcast) {
            if (newPrefixes.isEmpty()) {
                addPrefix(client, Bytes.wrap(new byte[0]));
            }
            for (Bytes prefix : newPrefixes) {
                addPrefix(client, prefix);
            }
        }
    }

    private void addPrefix(ClientConnection client, Bytes prefix) {
        Prefix state = prefixes.computeIfAbsent(prefix, p -> new Prefix());
        if (state.clients.add(client)) {
            client.tracking().addPrefix(prefix);
        }
    }

    /**
     * CLIENT TRACKING OFF, RESET, a closed connection (disableTracking). The client's ids stay in the tracking
     * table until their keys are invalidated, as in Redis (removing them would cost a walk of the table).
     */
    public void disable(ClientConnection client) {
        ClientTracking state = client.tracking();
        for (Bytes prefix : state.prefixes()) {
            Prefix p = prefixes.get(prefix);
            p.clients.remove(client);
            if (p.clients.isEmpty()) {
                prefixes.remove(prefix);
            }
        }
        if (state.on()) {
            trackingClients--;
        }
        state.disable();
    }

    // ---- the running command ----

    /** A client's command is about to be processed (Redis sets server.current_client). */
    public void currentClient(ClientConnection client) {
        current = client;
    }

    /** The current client's command runs (true) or has run (false): its own invalidations wait meanwhile. */
    public void executing(boolean running) {
        executing = running;
    }

    /**
     * After the top-level command of the current client (afterCommand): the invalidations it caused for itself
     * follow its reply.
     */
    public void afterCommand() {
        if (pending.isEmpty()) {
            return;
        }
        List<Bytes> keys = new ArrayList<>(pending);
        pending.clear();
        if (current == null || current.closed()) {
            return;
        }
        for (Bytes key : keys) {
            send(current, key == null ? null : List.of(key));
        }
    }

    /**
     * A read-only command ran for a tracking client (trackingRememberKeys): its keys are remembered, unless
     * OPTIN without CACHING yes, or OPTOUT with CACHING no.
     */
    public void rememberKeys(ClientConnection client, int[] keyIndexes, byte[][] args) {
        ClientTracking state = client.tracking();
        if (!state.on() || state.bcast()) {
            return;
        }
        if ((state.optIn() && !state.caching()) || (state.optOut() && state.caching())) {
            return;
        }
        for (int index : keyIndexes) {
            LinkedHashSet<Long> ids = table.computeIfAbsent(Bytes.wrap(args[index]), k -> new LinkedHashSet<>(2));
            if (ids.add(client.id())) {
                totalItems++;
            }
        }
    }

    // ---- invalidation ----

    /**
     * A key changed (trackingInvalidateKey, from signalModifiedKey): every client that may cache it hears of it
     * once, and BCAST clients of a matching prefix before the next sleep. {@code by} is the client whose command
     * changed it (null for the server: expiry, eviction), which NOLOOP BCAST clients are not told about.
     */
    public void invalidateKey(ClientConnection by, Bytes key, boolean broadcast) {
        if (!started) {
            return;
        }
        if (broadcast && !prefixes.isEmpty()) {
            rememberForBroadcast(by, key);
        }
        LinkedHashSet<Long> ids = table.remove(key);
        if (ids == null) {
            return;
        }
        totalItems -= ids.size();
        for (long id : ids) {
            ClientConnection target = engine.client(id);
            if (target == null || !target.tracking().on() || target.tracking().bcast()) {
                continue; // gone, off, or switched to BCAST since it read the key
            }
            if (target == current && target.tracking().noLoop()) {
                continue;
            }
            if (target == current && executing) {
                pending.add(key);
            } else {
                send(target, List.of(key));
            }
        }
    }

    /** One pass over the prefixes per modified key, as Redis's trackingRememberKeyToBroadcast. */
    private void rememberForBroadcast(ClientConnection by, Bytes key) {
        byte[] name = key.bytes();
        for (Map.Entry<Bytes, Prefix> e : prefixes.entrySet()) {
            byte[] prefix = e.getKey().bytes();
            if (startsWith(name, prefix)) {
                e.getValue().modified.put(key, by);
            }
        }
    }

    /**
     * FLUSHDB / FLUSHALL (trackingInvalidateKeysOnFlush): every tracking client gets a null invalidation (all of
     * its keys), and the whole table goes, whichever database was flushed.
     */
    public void invalidateAll() {
        if (trackingClients > 0) {
            for (ClientConnection client : List.copyOf(engine.clients())) {
                if (!client.tracking().on()) {
                    continue;
                }
                if (client == current && executing) {
                    pending.add(null);
                } else {
                    send(client, null);
                }
            }
        }
        if (started) {
            table.clear();
            totalItems = 0;
        }
    }

    /**
     * Before the event loop sleeps (beforeSleep): BCAST clients get the keys of their prefixes changed meanwhile,
     * and the table is brought back under tracking-table-max-keys.
     */
    public void beforeSleep() {
        if (trackingClients == 0) {
            return;
        }
        broadcast();
        limitUsedSlots();
    }

    private void broadcast() {
        for (Prefix prefix : prefixes.values()) {
            if (prefix.modified.isEmpty()) {
                continue;
            }
            List<Bytes> all = new ArrayList<>(prefix.modified.keySet());
            for (ClientConnection client : List.copyOf(prefix.clients)) {
                if (client.tracking().noLoop()) {
                    List<Bytes> others = new ArrayList<>(all.size());
                    prefix.modified.forEach((key, by) -> {
                        if (by != client) {
                            others.add(key);
                        }
                    });
                    if (!others.isEmpty()) {
                        send(client, others);
                    }
                } else {
                    send(client, all);
                }
            }
            prefix.modified.clear();
        }
    }

    /**
     * trackingLimitUsedSlots (processCommand and before sleeping): over tracking-table-max-keys, keys are
     * dropped, their clients told as if the keys changed, with an effort that grows each time the limit could
     * not be reached. Redis drops keys picked by a random walk; the simulator drops the oldest first.
     */
    public void limitUsedSlots() {
        long max = engine.config().getLong("tracking-table-max-keys");
        if (!started || max == 0) {
            return;
        }
        if (table.size() <= max) {
            overLimitRounds = 0;
            return;
        }
        int effort = 100 * (overLimitRounds + 1);
        Iterator<Bytes> oldest = table.keySet().iterator();
        while (effort-- > 0 && oldest.hasNext()) {
            Bytes key = oldest.next();
            invalidateKey(null, key, false);
            oldest = table.keySet().iterator(); // the removal changed the map under the iterator
            if (table.size() <= max) {
                overLimitRounds = 0;
                return;
            }
        }
        overLimitRounds++;
    }

    // ---- sending ----

    /**
     * sendTrackingMessage: {@code keys} null is a flush (a null in the tracking client's protocol, as Redis
     * writes it whatever the receiver speaks).
     */
    private void send(ClientConnection client, List<Bytes> keys) {
        ClientTracking state = client.tracking();
        ClientConnection receiver = client;
        boolean redirected = false;
        if (state.redirect() != 0) {
            ClientConnection target = engine.client(state.redirect());
            if (target == null || target.closed()) {
                state.brokenRedirect(true);
                if (client.protocol() > 2) {
                    Reply r = client.reply();
                    boolean replies = r.enabled();
                    r.enabled(true);
                    r.push(2);
                    r.bulk(REDIR_BROKEN);
                    r.integer(state.redirect());
                    r.enabled(replies);
                    engine.markPendingOutput(client);
                }
                return;
            }
            receiver = target;
            redirected = true;
        }
        Reply r = receiver.reply();
        boolean replies = r.enabled();
        r.enabled(true); // pushes reach a client even under CLIENT REPLY OFF, as in Redis 7.0.15
        if (receiver.protocol() > 2) {
            r.push(2);
            r.bulk(INVALIDATE);
        } else if (redirected && receiver.subscriptions().active()) {
            r.array(3);
            r.bulk(MESSAGE);
            r.bulk(CHANNEL);
        } else {
            r.enabled(replies); // RESP2 without a subscribed redirect: nowhere to say it
            return;
        }
        if (keys == null) {
            r.raw(client.protocol() > 2 ? NULL_RESP3 : NULL_RESP2);
        } else {
            r.array(keys.size());
            for (Bytes key : keys) {
                r.bulk(key.bytes());
            }
        }
        r.enabled(replies);
        engine.markPendingOutput(receiver);
    }

    // ---- figures (INFO) ----

    public int trackingClients() {
        return trackingClients;
    }

    public int totalKeys() {
        return table.size();
    }

    public long totalItems() {
        return totalItems;
    }

    public int totalPrefixes() {
        return prefixes.size();
    }

    private static boolean startsWith(byte[] name, byte[] prefix) {
        if (prefix.length > name.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (name[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
