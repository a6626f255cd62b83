package dev.redsim.simulator.server;

import dev.redsim.simulator.protocol.DecoderLimits;
import dev.redsim.simulator.protocol.InputSize;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.protocol.Outgoing;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayDeque;

/**
 * The state Redis keeps per client (its struct client): id, name, selected db, protocol, authentication,
 * reply mode, and where replies go. Touched only on the engine thread.
 */
public final class ClientConnection implements DecoderLimits {
    /** Redis's static reply buffer (16 KB) plus the 1 KB of reply list it allows a client that has not authenticated. */
    private static final int UNAUTHENTICATED_OUTPUT_LIMIT = 16 * 1024 + 1024;
    private final long id;
    /** The client's socket, or null for the server's own clients (scripts, a replica's master link fed in process). */
    private final Connection connection;
    private final Reply reply;
    private final ServerContext server;
    private final long createdMillis;
    private long lastInteractionMillis;
    private int db;
    /**
     * On a cluster node, the slot of the command being run (Redis's c->slot): the first key's of the command, or of
     * EXEC's queued commands, or -1; a script without declared keys fixes it with the first key it touches.
     */
    private int clusterSlot = -1;
    private String name = "";
    private String libName = "";
    private String libVersion = "";
    /** Redis's c->authenticated: set at connect when the default user needs no password, by AUTH and HELLO AUTH. */
    private boolean authenticated;
    private ClientUser user;
    private boolean closeAfterReply;
    /** Set once the connection was told to close (after its reply, or at once): later batches have nowhere to go. */
    private boolean closeHandedOver;
    private boolean closed;
    private ReplyMode replyMode = ReplyMode.ON;
    private boolean noEvict;
    private boolean noTouch;
    private String lastCommand = "NULL";
    /** The bytes used_memory last counted for this client (see {@link #memoryUsage}). */
    private long accountedMemory;
    /** Whether the engine counts this connection among its clients (admitted, not yet gone): asked after every command. */
    private boolean registered;
    /** When the output first stayed over its class's soft limit (0: it is not over it). */
    private long softLimitReachedMillis;
    private final MultiState multiState = new MultiState();
    private final ClientSubscriptions subscriptions = new ClientSubscriptions();
    private final ClientTracking tracking = new ClientTracking();

    /** CLIENT REPLY modes. */
    private boolean replica;
    private long writeOffset;
    /** Redis's CLIENT_ASKING: set by ASKING, lets the next command reach a slot this cluster node is importing. */
    private boolean asking;
    /** Redis's CLIENT_READONLY: set by READONLY, lets a cluster replica serve this client's reads of its master's slots. */
    private boolean readOnlyReplicaReads;
    /** Redis's CLIENT_MASTER: the link a replica applies its master's stream through (no slot check, no -READONLY). */
    private boolean masterLink;

    public enum ReplyMode { ON, OFF, SKIP, SKIP_NEXT }

    public ClientConnection(long id, Connection connection, Reply reply, ServerContext server, long nowMillis) {
        this.id = id;
        this.connection = connection;
        this.reply = reply;
        this.server = server;
        this.createdMillis = nowMillis;
        this.lastInteractionMillis = nowMillis;
        this.user = server.defaultUser();
        this.authenticated = user.passwordless();
    }

    public long id() {
        return id;
    }

    /** The client's socket, or null for a client without one (a script's, a master link fed in process). */
    public Connection connection() {
        return connection;
    }

    public Reply reply() {
        return reply;
    }

    public int db() {
        return db;
    }

    public void db(int db) {
        this.db = db;
    }

    public int clusterSlot() {
        return clusterSlot;
    }

    public void clusterSlot(int slot) {
        this.clusterSlot = slot;
    }

    public String name() {
        return name;
    }

    public void name(String name) {
        this.name = name;
    }

    public String libName() {
        return libName;
    }

    public void libName(String libName) {
        this.libName = libName;
    }

    public String libVersion() {
        return libVersion;
    }

    public void libVersion(String libVersion) {
        this.libVersion = libVersion;
    }

    public int protocol() {
        return reply.protocol();
    }

    public void protocol(int version) {
        reply.protocol(version);
    }

    /**
     * Whether the client may run commands that need authentication (the opposite of Redis's authRequired(c)): it
     * authenticated, or the default user needs no password now.
     */
    @Override
    public boolean authenticated() {
        return authenticated || !server.authRequired();
    }

    /** Redis's c->authenticated alone, which HELLO without AUTH asks for. */
    public boolean hasAuthenticated() {
        return authenticated;
    }

    public void authenticated(boolean value) {
        this.authenticated = value;
    }

    /** The user this connection runs commands as (client->user). */
    public ClientUser user() {
        return user;
    }

    public void user(ClientUser user) {
        this.user = user;
    }

    @Override
    public long maxBulkLength() {
        return server.protoMaxBulkLen();
    }

    @Override
    public long maxQueryBuffer() {
        return server.queryBufferLimit();
    }

    public boolean closeAfterReply() {
        return closeAfterReply;
    }

    /** Asks for the connection to be closed once the pending replies are written (QUIT, protocol errors). */
    public void closeAfterReply(boolean value) {
        this.closeAfterReply = value;
    }

    public boolean closed() {
        return closed;
    }

    public void markClosed() {
        this.closed = true;
    }

    /**
     * Writes what the replies wrote so far to the socket in one flush, and closes the connection afterwards when
     * asked to (QUIT, protocol errors, CLIENT KILL). Called on the engine thread.
     */
    public void flush() {
        if (connection == null || closeHandedOver) {
            // no socket, or one told to close once its reply is out: a later batch (an empty one ended by a read after
            // QUIT) must not close it at once, which would drop the end of that reply
            reply.discardPending();
            return;
        }
        if (!authenticated && reply.pendingBytes() + unwrittenBytes() > UNAUTHENTICATED_OUTPUT_LIMIT) {
            // Redis closes an unauthenticated client whose replies pass its 16 KB reply buffer by 1 KB (it does
            // not read them: a flood of commands it may not run), without writing them
            reply.discardPending();
            markClosed();
            connection.close();
            return;
        }
        if (reply.hasPending()) {
            Outgoing pending = reply.pending();
            // Redis counts what writeToClient writes (stat_net_output_bytes): a reply counts once it leaves, so
            // INFO's total_net_output_bytes does not yet include the INFO reply itself.
            server.countNetOutput(pending.bytes());
            try {
                if (closeAfterReply) {
                    connection.writeThenClose(pending);
                    closeHandedOver = true;
                } else {
                    connection.write(pending);
                }
            } finally {
                reply.discardPending(); // the transport copied what the socket did not take
            }
            if (!closeAfterReply) {
                // measured once the batch is gone from the reply buffer: what the socket did not take is
                // unwrittenBytes, and counting the batch as pending too would keep a delivered reply in the client's
                // memory (mem_clients_normal, used_memory, maxmemory-clients) until clientsCron measures it again
                server.outputWritten(this);
            }
        } else if (closeAfterReply) {
            connection.close();
            closeHandedOver = true;
        }
    }

    /** Bytes handed to the socket that it has not taken yet (the client is not reading). */
    public long unwrittenBytes() {
        return connection == null ? 0 : connection.unwrittenBytes();
    }

    /** What Redis counts for a client struct (about 2 KB) and the 1 KB reply buffer CLIENT LIST shows (rbs). */
    private static final long CLIENT_STRUCT_AND_REPLY_BUFFER = 2048 + 1024;

    /**
     * The memory this client holds (Redis's getClientMemoryUsage, roughly): its struct and reply buffer, the
     * commands queued in MULTI, replies not yet handed to the socket and output the socket has not taken. O(1).
     */
    public long memoryUsage() {
        return CLIENT_STRUCT_AND_REPLY_BUFFER + multiState.memoryEstimate() + reply.pendingBytes() + unwrittenBytes();
    }

    public boolean registered() {
        return registered;
    }

    public void registered(boolean counted) {
        this.registered = counted;
    }

    public long accountedMemory() {
        return accountedMemory;
    }

    public void accountedMemory(long bytes) {
        this.accountedMemory = bytes;
    }

    /** The channels, patterns and shard channels this connection is subscribed to. */
    public ClientSubscriptions subscriptions() {
        return subscriptions;
    }

    /** CLIENT TRACKING state: mode, redirection, prefixes. */
    public ClientTracking tracking() {
        return tracking;
    }

    public ReplyMode replyMode() {
        return replyMode;
    }

    public void replyMode(ReplyMode mode) {
        this.replyMode = mode;
    }

    /** Whether this connection is a replica receiving the replication stream (Redis's CLIENT_SLAVE). */
    public boolean asking() {
        return asking;
    }

    public void asking(boolean value) {
        this.asking = value;
    }

    public boolean replica() {
        return replica;
    }

    public boolean readOnlyReplicaReads() {
        return readOnlyReplicaReads;
    }

    public void readOnlyReplicaReads(boolean value) {
        this.readOnlyReplicaReads = value;
    }

    public boolean masterLink() {
        return masterLink;
    }

    public void masterLink(boolean value) {
        this.masterLink = value;
    }

    public void replica(boolean value) {
        this.replica = value;
    }

    /** The replication offset right after this client's last command (Redis's woff), which WAIT waits for. */
    public long writeOffset() {
        return writeOffset;
    }

    public void writeOffset(long offset) {
        this.writeOffset = offset;
    }

    public boolean noEvict() {
        return noEvict;
    }

    public void noEvict(boolean value) {
        this.noEvict = value;
    }

    public boolean noTouch() {
        return noTouch;
    }

    public void noTouch(boolean value) {
        this.noTouch = value;
    }

    public long createdMillis() {
        return createdMillis;
    }

    public long lastInteractionMillis() {
        return lastInteractionMillis;
    }

    public void touch(long nowMillis, String command) {
        this.lastInteractionMillis = nowMillis;
        this.lastCommand = command;
    }

    /** Output written to the client also resets its idle time, as Redis's writeToClient does. */
    public void wrote(long nowMillis) {
        this.lastInteractionMillis = nowMillis;
    }

    public String lastCommand() {
        return lastCommand;
    }

    public long softLimitReachedMillis() {
        return softLimitReachedMillis;
    }

    public void softLimitReachedMillis(long millis) {
        this.softLimitReachedMillis = millis;
    }

    // ---- blocking (blocked.c) ----

    private boolean blocked;
    private boolean denyBlocking;
    private ArrayDeque<Object> deferredInput;
    /** The bytes of {@link #deferredInput} as the client sent them (Redis keeps them in its query buffer). */
    private long deferredBytes;

    /** Whether the client waits in a blocking command (CLIENT LIST flag 'b'); its input waits meanwhile. */
    public boolean blocked() {
        return blocked;
    }

    public void blocked(boolean value) {
        this.blocked = value;
    }

    /**
     * Redis's CLIENT_DENY_BLOCKING: set while the client's commands must not block (inside MULTI/EXEC), so the
     * blocking commands answer as their non-blocking forms would when nothing is there.
     */
    public boolean denyBlocking() {
        return denyBlocking;
    }

    public void denyBlocking(boolean value) {
        this.denyBlocking = value;
    }

    /** Keeps a decoded command (or protocol error) that arrived while blocked, to run once unblocked. */
    public void deferInput(Object message) {
        if (deferredInput == null) {
            deferredInput = new ArrayDeque<>();
        }
        deferredInput.add(message);
        deferredBytes += InputSize.of(message);
    }

    /** Puts a command back at the head of the queue: it runs first when the client may go on (CLIENT PAUSE). */
    public void deferInputFirst(Object message) {
        if (deferredInput == null) {
            deferredInput = new ArrayDeque<>();
        }
        deferredInput.addFirst(message);
        deferredBytes += InputSize.of(message);
    }

    public boolean hasDeferredInput() {
        return deferredInput != null && !deferredInput.isEmpty();
    }

    public Object pollDeferredInput() {
        Object message = deferredInput == null ? null : deferredInput.poll();
        deferredBytes -= InputSize.of(message);
        return message;
    }

    /**
     * How much input waits unprocessed while the client is blocked or paused: Redis keeps it in the client's query
     * buffer, so it counts against client-query-buffer-limit there.
     */
    public long deferredInputBytes() {
        return deferredBytes;
    }

    /** MULTI queue, transaction flags and watched keys. */
    public MultiState multiState() {
        return multiState;
    }

    /** "ip:port" of the peer, as CLIENT LIST prints addr. */
    public String address() {
        return format(connection == null ? null : connection.remoteAddress());
    }

    /** "ip:port" of our side, as CLIENT LIST prints laddr. */
    public String localAddress() {
        return format(connection == null ? null : connection.localAddress());
    }

    private static String format(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            return inet.getAddress().getHostAddress() + ":" + inet.getPort();
        }
        return "?:0";
    }
}
