package dev.redsim.simulator.engine;

import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.util.RandomHex;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The master side of replication (Redis's replication.c): the replication id and offset, the backlog, the
 * replicas and their links, and the one place where the stream is written (replicationFeedSlaves): a SELECT when
 * the database changes, then the command, to the backlog and to every online replica. Commands reach it through
 * {@link Propagation}. Touched only on the engine thread.
 */
public final class Replication {
    private static final byte[][] PING = {"ping".getBytes(StandardCharsets.US_ASCII)};
    private static final byte[][] GETACK = {bytes("REPLCONF"), bytes("GETACK"), bytes("*")};

    private final Engine engine;
    private String replid;
    private long offset;
    private ReplicationBacklog backlog;
    /** The database the stream last selected (server.slaveseldb); -1 forces a SELECT before the next command. */
    private int selectedDb = -1;
    /** Every client that sent REPLCONF, SYNC or PSYNC, in the order they did: online replicas and handshakes. */
    private final Map<ClientConnection, ReplicaLink> links = new LinkedHashMap<>();
    /** Clients blocked in WAIT, in the order they blocked. */
    private final List<Waiter> waiters = new ArrayList<>();
    private long lastPingMillis;
    /** Set while this server is a replica (of a node of its simulated cluster): its master. */
    private Upstream upstream;
    private long lastFromMasterMillis;
    /** master_replid2 and second_repl_offset: the history this server shared before its last change of id. */
    private String replid2 = "0".repeat(40);
    private long secondOffset = -1;
    /** Replicas on this thread, fed command by command instead of through a socket (decision 0022). */
    private final Map<ClientConnection, StreamReceiver> inProcess = new LinkedHashMap<>();

    private record Waiter(ClientConnection client, long offset, long replicas) {
    }

    Replication(Engine engine) {
        this.engine = engine;
        this.replid = newReplicationId();
    }

    private String newReplicationId() {
        return RandomHex.of(40);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    public String replid() {
        return replid;
    }

    /** master_repl_offset: every byte the stream ever carried. */
    public long offset() {
        return offset;
    }

    public boolean backlogActive() {
        return backlog != null;
    }

    public long backlogFirstByteOffset() {
        return backlog == null ? 0 : backlog.firstByteOffset();
    }

    public long backlogHistlen() {
        return backlog == null ? 0 : backlog.histlen();
    }

    // ---- the stream ----

    /**
     * replicationFeedSlaves: writes one command to the stream, after a SELECT when {@code db} is not the one the
     * stream has selected ({@code db} -1: a command of no database, PING or REPLCONF GETACK). Nothing is written
     * before the first replica attached (there is no backlog yet), as in Redis.
     */
    /** Whether {@link #feed} writes anything: a replica attached once (the backlog exists) and this is no replica. */
    public boolean feeds() {
        return backlog != null && upstream == null;
    }

    void feed(int db, byte[][] argv) {
        if (!feeds()) {
            // no replica ever attached: Redis feeds nothing (the backlog comes with the first replica); a replica
            // does not propagate what it applies, it passes its master's stream on (receivedFromMaster)
            return;
        }
        if (db >= 0 && db != selectedDb) {
            write(new byte[][] {bytes("SELECT"), bytes(Integer.toString(db))});
            selectedDb = db;
        }
        write(argv);
    }

    private void write(byte[][] argv) {
        backlog.resize(backlogSize());
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        encode(frame, argv);
        byte[] data = frame.toByteArray();
        offset += data.length;
        backlog.append(data);
        for (ReplicaLink link : links.values()) {
            if (link.online()) {
                StreamReceiver receiver = inProcess.get(link.client());
                if (receiver == null) {
                    send(link.client(), data);
                } else {
                    receiver.receive(argv, data.length);
                    // it applied the command already: its acknowledgement is as current as the stream
                    link.acknowledged(offset, engine.time().millis());
                }
            }
        }
    }

    // ---- a replica on this thread (decision 0022) ----

    /**
     * Attaches a replica that runs on this thread: it gets the stream command by command from now on, as a replica
     * after its synchronisation does. The first one creates the backlog, as a first SYNC does. The caller makes its
     * data equal to ours first (or knows it is: a replica of the same history).
     */
    public void attachInProcess(ClientConnection client, String ip, int listeningPort, StreamReceiver receiver) {
        if (backlog == null) {
            replid = newReplicationId(); // changeReplicationId(), as for the first replica of a socket
            backlog = new ReplicationBacklog(backlogSize(), offset);
        }
        ReplicaLink link = link(client);
        link.announcedIp(ip);
        link.listeningPort(listeningPort);
        inProcess.put(client, receiver);
        selectedDb = -1; // as after a full synchronisation, the stream selects its database again
        becomeReplica(link);
        link.acknowledged(offset, engine.time().millis());
    }

    /** A replica on this thread leaves (it was failed over to, or its cluster resets its roles). */
    public void detachInProcess(ClientConnection client) {
        inProcess.remove(client);
        links.remove(client);
    }

    /**
     * This server becomes a replica of {@code master}, whose history it continues from {@code masterReplid} at
     * {@code masterOffset}: {@code continued} as after a PSYNC +CONTINUE (it keeps its own id as replid2 where the
     * histories join), otherwise as after a full synchronisation that loaded the master's data. Its own replicas go.
     */
    public void becomeReplicaOf(Upstream master, String masterReplid, long masterOffset, boolean continued) {
        for (ClientConnection client : new ArrayList<>(inProcess.keySet())) {
            detachInProcess(client);
        }
        if (!masterReplid.equals(replid)) {
            if (continued && masterOffset == offset) {
                replid2 = replid;
                secondOffset = offset + 1;
            } else {
                replid2 = "0".repeat(40);
                secondOffset = -1;
            }
            replid = masterReplid;
        }
        if (masterOffset != offset || backlog == null) {
            backlog = new ReplicationBacklog(backlogSize(), masterOffset);
        }
        offset = masterOffset;
        upstream = master;
        lastFromMasterMillis = engine.time().millis();
        selectedDb = -1;
    }

    /**
     * A replica's master sent it one command of the stream: it joins this server's history (and its backlog), as
     * Redis's replicas keep the master's stream to serve their own replicas and a later PSYNC.
     */
    public void receivedFromMaster(byte[][] argv) {
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        encode(frame, argv);
        byte[] data = frame.toByteArray();
        offset += data.length;
        backlog.append(data);
        lastFromMasterMillis = engine.time().millis();
    }

    /** When the master last sent something (INFO's master_last_io_seconds_ago). */
    public long lastFromMasterMillis() {
        return lastFromMasterMillis;
    }

    /**
     * This replica becomes a master (a failover promoted it): a new replication id, the old one kept as replid2 up
     * to the offset reached (shiftReplicationId), so that its former master continues with it.
     */
    public void becomeMaster() {
        if (upstream == null) {
            return;
        }
        upstream = null;
        replid2 = replid;
        secondOffset = offset + 1;
        replid = newReplicationId();
        selectedDb = -1;
    }

    /**
     * The server's process started again without persistence: a new replication id, offset 0, no backlog, no
     * replicas, no master, no second history (a cluster node that a test stopped and started).
     */
    public void restart() {
        for (ClientConnection client : new ArrayList<>(inProcess.keySet())) {
            detachInProcess(client);
        }
        links.clear();
        waiters.clear();
        replid = newReplicationId();
        offset = 0;
        backlog = null;
        selectedDb = -1;
        upstream = null;
        replid2 = "0".repeat(40);
        secondOffset = -1;
    }

    /** The master this server replicates, or null when it is a master. */
    public Upstream upstream() {
        return upstream;
    }

    public String replid2() {
        return replid2;
    }

    public long secondOffset() {
        return secondOffset;
    }

    private int backlogSize() {
        return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(16 * 1024, engine.config().getLong("repl-backlog-size")));
    }

    static void encode(ByteArrayOutputStream out, byte[][] argv) {
        out.writeBytes(("*" + argv.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (byte[] arg : argv) {
            out.writeBytes(("$" + arg.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(arg);
            out.write('\r');
            out.write('\n');
        }
    }

    /** Writes to a replica whatever its reply mode (a replica's own commands get no replies). */
    private void send(ClientConnection client, byte[] data) {
        if (client.closed()) {
            return;
        }
        boolean enabled = client.reply().enabled();
        client.reply().enabled(true);
        client.reply().raw(data);
        client.reply().enabled(enabled);
        engine.markPendingOutput(client);
    }

    // ---- the handshake and the synchronisations ----

    /** The link of a client that takes part in replication, created by its first REPLCONF, SYNC or PSYNC. */
    public ReplicaLink link(ClientConnection client) {
        return links.computeIfAbsent(client, ReplicaLink::new);
    }

    /** The link of a client, or null when it never spoke of replication. */
    public ReplicaLink existingLink(ClientConnection client) {
        return links.get(client);
    }

    public boolean isReplica(ClientConnection client) {
        ReplicaLink link = links.get(client);
        return link != null && link.online();
    }

    public void listeningPort(ClientConnection client, int port) {
        link(client).listeningPort(port);
    }

    public void announcedIp(ClientConnection client, String ip) {
        link(client).announcedIp(ip);
    }

    public void capa(ClientConnection client, String capability) {
        link(client).capa(capability);
    }

    /**
     * masterTryPartialResynchronization: the replica's replication id is ours and the byte it asks for is in the
     * backlog, so it gets "+CONTINUE" and the missing stream; false (nothing written) when it needs a full one.
     */
    public boolean tryContinue(ClientConnection client, String askedReplid, long psyncOffset) {
        if (!askedReplid.equalsIgnoreCase(replid) || backlog == null || !backlog.holdsFrom(psyncOffset)) {
            return false;
        }
        ReplicaLink link = link(client);
        String line = link.psync2() ? "+CONTINUE " + replid + "\r\n" : "+CONTINUE\r\n";
        becomeReplica(link);
        send(client, bytes(line));
        send(client, backlog.from(psyncOffset));
        return true;
    }

    /**
     * A full synchronisation (syncCommand with replicationSetupSlaveForFullResync): the first replica creates the
     * backlog under a new replication id; "+FULLRESYNC <replid> <offset>" (PSYNC only; SYNC gets the payload
     * alone), then the RDB as a bulk without its final CRLF, as a disk-based Redis sends it; then the stream,
     * starting with a SELECT.
     */
    public void fullResync(ClientConnection client, boolean psync, java.util.function.Function<ReplicationInfo, byte[]> rdb) {
        ReplicaLink link = link(client);
        if (backlog == null) {
            replid = newReplicationId(); // changeReplicationId(): the history before the first replica is not ours
            backlog = new ReplicationBacklog(backlogSize(), offset);
        }
        int streamDb = selectedDb < 0 ? 0 : selectedDb;
        byte[] payload = rdb.apply(new ReplicationInfo(streamDb, replid, offset));
        selectedDb = -1;
        becomeReplica(link);
        if (psync) {
            send(client, bytes("+FULLRESYNC " + replid + " " + offset + "\r\n"));
        }
        send(client, bytes("$" + payload.length + "\r\n"));
        send(client, payload);
        link.acknowledged(0, engine.time().millis());
    }

    /** The replication fields an RDB made for a replica carries (repl-stream-db, repl-id, repl-offset). */
    public record ReplicationInfo(int streamDb, String replid, long offset) {
    }

    private void becomeReplica(ReplicaLink link) {
        if (replicas().isEmpty()) {
            lastPingMillis = engine.time().millis(); // the first PING comes a period after a replica is there
        }
        link.online(true);
        link.client().replica(true);
        link.acknowledged(0, engine.time().millis());
    }

    /** REPLCONF ACK from a replica: its offset, and the WAITs it may now satisfy. */
    public void acknowledged(ClientConnection client, long ackOffset) {
        ReplicaLink link = links.get(client);
        if (link == null || !link.online()) {
            return; // Redis ignores an ACK from a client that is not a replica
        }
        link.acknowledged(ackOffset, engine.time().millis());
        releaseWaiters();
    }

    /** A client went away: a replica's link ends, a WAIT ends unanswered. */
    public void forget(ClientConnection client) {
        links.remove(client);
        if (!waiters.isEmpty()) { // the lambda only when there is a WAIT (each connection's close passes here)
            waiters.removeIf(w -> w.client() == client);
        }
    }

    /** The online replicas, in the order they attached. */
    public List<ReplicaLink> replicas() {
        List<ReplicaLink> online = new ArrayList<>();
        for (ReplicaLink link : links.values()) {
            if (link.online()) {
                online.add(link);
            }
        }
        return Collections.unmodifiableList(online);
    }

    // ---- WAIT ----

    /** replicationCountAcksByOffset: online replicas that acknowledged the stream up to {@code ackOffset}. */
    public int countAcks(long ackOffset) {
        int count = 0;
        for (ReplicaLink link : links.values()) {
            if (link.online() && link.ackOffset() >= ackOffset) {
                count++;
            }
        }
        return count;
    }

    /**
     * WAIT that must wait: the client blocks until enough replicas acknowledged its offset or its time runs out
     * (then it gets the count reached, not a null), and the replicas are asked for an ACK at once (Redis sends
     * REPLCONF GETACK before it sleeps).
     */
    public void blockForAcks(ClientConnection client, long waitOffset, long replicas, long deadline) {
        waiters.add(new Waiter(client, waitOffset, replicas));
        engine.blockedClients().blockWithoutKeys(client, "wait", deadline, () -> {
            waiters.removeIf(w -> w.client() == client);
            client.reply().integer(countAcks(waitOffset));
        });
        getAckPending = true;
    }

    /** Whether a WAIT asked for acknowledgements since the last {@link #sendGetAck}. */
    private boolean getAckPending;

    /**
     * REPLCONF GETACK * into the stream when a WAIT asked for it, once the command is done (Redis sends it before
     * the event loop sleeps): the WAITing client's own offset does not include it.
     */
    public void sendGetAck() {
        if (getAckPending) {
            getAckPending = false;
            feed(selectedDb, GETACK);
        }
    }

    private void releaseWaiters() {
        for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
            Waiter waiter = it.next();
            if (!engine.blockedClients().isBlocked(waiter.client())) {
                it.remove();
                continue;
            }
            int acks = countAcks(waiter.offset());
            if (acks >= waiter.replicas()) {
                it.remove();
                waiter.client().reply().integer(acks);
                engine.blockedClients().release(engine, waiter.client());
            }
        }
    }

    // ---- cron ----

    /**
     * replicationCron's keepalive: a PING into the stream every repl-ping-replica-period seconds of the server's
     * clock while there are replicas, so they see the master alive (and their offsets move).
     */
    void cron() {
        if (links.isEmpty() || replicas().isEmpty()) {
            return;
        }
        long now = engine.time().millis();
        long period = engine.config().getLong("repl-ping-replica-period") * 1000;
        if (now - lastPingMillis >= period) {
            lastPingMillis = now;
            feed(selectedDb, PING);
            engine.flushPendingOutput();
        }
    }
}
