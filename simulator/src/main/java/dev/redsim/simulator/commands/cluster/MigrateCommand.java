package dev.redsim.simulator.commands.cluster;

import dev.redsim.simulator.cluster.ClusterNodeInfo;
import dev.redsim.simulator.cluster.ClusterState;
import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.command.KeyRef;
import dev.redsim.simulator.commands.keys.KeyDumpCommands;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.RedisValue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * MIGRATE host port key|"" db timeout [COPY] [REPLACE] [AUTH pw] [AUTH2 user pw] [KEYS key ...] as Redis 7.0 runs
 * it (migrateCommand in cluster.c): the keys present here are sent as AUTH, SELECT db and one RESTORE (RESTORE-ASKING
 * from a cluster node) per key, with its remaining TTL; a key the target took is deleted here unless COPY, and the
 * call is replicated as a DEL of those keys. The first error the target answers is the reply; a socket problem is
 * -IOERR, retried once unless it was a timeout. A target that is a node of this simulated cluster is called on this
 * thread; any other target is reached through a socket (decision 0016). Unlike Redis, no connection is kept for the
 * next MIGRATE, so SELECT (and AUTH when given) is sent every time and INFO's migrate_cached_sockets stays 0.
 */
public final class MigrateCommand implements CommandFamily {
    private static final byte[] SELECT = bytes("SELECT");
    private static final byte[] AUTH = bytes("AUTH");
    private static final byte[] REPLACE = bytes("REPLACE");
    private static final List<String> KEY_FLAGS = List.of("RW", "access", "delete");

    private final ClusterState cluster;

    public MigrateCommand(ClusterState cluster) {
        this.cluster = cluster;
    }

    @Override
    public void register(CommandTable t) {
        t.handler("migrate", this::migrate, MigrateCommand::keys);
    }

    /**
     * migrateGetKeys: the key argument, or with KEYS every argument after it (and then none at all when the key
     * argument is not empty: the command itself refuses that call).
     */
    static List<KeyRef> keys(byte[][] args) {
        int first = 3;
        int count = 1;
        for (int i = 6; i < args.length; i++) {
            String word = CommandTable.lowerAscii(args[i]);
            if (word.equals("keys")) {
                if (args[3].length > 0) {
                    return List.of();
                }
                first = i + 1;
                count = args.length - first;
                break;
            }
            i += switch (word) {
                case "auth" -> 1;
                case "auth2" -> 2;
                default -> 0;
            };
        }
        List<KeyRef> keys = new ArrayList<>(count);
        for (int i = first; i < first + count; i++) {
            keys.add(new KeyRef(i, KEY_FLAGS));
        }
        return keys;
    }

    private void migrate(CommandContext ctx) {
        boolean copy = false;
        boolean replace = false;
        byte[] username = null;
        byte[] password = null;
        int firstKey = 3;
        int keyCount = 1;
        for (int j = 6; j < ctx.argc(); j++) {
            int more = ctx.argc() - 1 - j;
            if (ctx.is(j, "copy")) {
                copy = true;
            } else if (ctx.is(j, "replace")) {
                replace = true;
            } else if (ctx.is(j, "auth")) {
                if (more < 1) {
                    throw RedisError.SYNTAX;
                }
                password = ctx.arg(++j);
            } else if (ctx.is(j, "auth2")) {
                if (more < 2) {
                    throw RedisError.SYNTAX;
                }
                username = ctx.arg(++j);
                password = ctx.arg(++j);
            } else if (ctx.is(j, "keys")) {
                if (ctx.arg(3).length != 0) {
                    throw new RedisError("ERR When using MIGRATE KEYS option, the key argument must be set to the "
                            + "empty string");
                }
                firstKey = j + 1;
                keyCount = ctx.argc() - j - 1;
                break;
            } else {
                throw RedisError.SYNTAX;
            }
        }
        long timeout = ctx.longArg(5);
        long db = ctx.longArg(4);
        if (timeout <= 0) {
            timeout = 1000;
        }
        List<Bytes> keys = new ArrayList<>();
        List<RedisValue> values = new ArrayList<>();
        for (int i = firstKey; i < firstKey + keyCount; i++) {
            RedisValue value = ctx.db().getForRead(ctx.key(i));
            if (value != null) {
                keys.add(ctx.key(i));
                values.add(value);
            }
        }
        if (keys.isEmpty()) {
            ctx.reply().simple("NOKEY"); // nothing to move is no error: the keys may just have expired
            return;
        }
        List<byte[][]> commands = new ArrayList<>();
        if (password != null) {
            commands.add(username == null ? new byte[][] {AUTH, password} : new byte[][] {AUTH, username, password});
        }
        commands.add(new byte[][] {SELECT, bytes(Long.toString(db))});
        byte[] restore = bytes(cluster.enabled() ? "RESTORE-ASKING" : "RESTORE");
        List<Bytes> sent = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            long ttl = 0;
            long expireAt = ctx.db().expireAt(keys.get(i));
            if (expireAt != -1) {
                ttl = expireAt - ctx.now();
                if (ttl < 0) {
                    continue; // expired since it was looked up
                }
                ttl = Math.max(ttl, 1);
            }
            byte[] payload = KeyDumpCommands.dumpPayload(values.get(i));
            byte[] key = keys.get(i).bytes();
            byte[] ttlArg = bytes(Long.toString(ttl));
            commands.add(replace ? new byte[][] {restore, key, ttlArg, payload, REPLACE}
                    : new byte[][] {restore, key, ttlArg, payload});
            sent.add(keys.get(i));
        }
        String host = ctx.text(1);
        int port = atoi(ctx.text(2));
        MigrationLink.Replies replies = exchange(host, port, timeout, commands);
        if (replies.failure() != null && !replies.failure().timeout()
                && replies.lines().size() < commands.size() - sent.size() + 1) {
            replies = exchange(host, port, timeout, commands); // Redis retries once when no key was answered yet
        }
        finish(ctx, replies, password != null, sent, copy);
    }

    /** Reads the replies as Redis does: the first error is the answer; every key the target took is gone here. */
    private static void finish(CommandContext ctx, MigrationLink.Replies replies, boolean auth, List<Bytes> sent,
                               boolean copy) {
        List<String> lines = replies.lines();
        int preamble = auth ? 2 : 1;
        if (lines.size() < preamble) {
            throw ioError(replies.failure());
        }
        String authReply = auth ? lines.get(0) : "+OK";
        String selectReply = lines.get(preamble - 1);
        String error = null;
        List<byte[]> deleted = new ArrayList<>();
        deleted.add(bytes("DEL"));
        for (int j = 0; j < sent.size() && preamble + j < lines.size(); j++) {
            String line = lines.get(preamble + j);
            if (authReply.startsWith("-") || selectReply.startsWith("-") || line.startsWith("-")) {
                if (error == null) {
                    String failed = authReply.startsWith("-") ? authReply
                            : selectReply.startsWith("-") ? selectReply : line;
                    error = "ERR Target instance replied with error: " + failed.substring(1);
                }
            } else if (!copy) {
                Bytes key = sent.get(j);
                ctx.db().delete(key);
                ctx.signalModified(key);
                ctx.notifyEvent(KeyspaceEvents.GENERIC, "del", key);
                ctx.dirty(1);
                deleted.add(key.bytes());
            }
        }
        if (deleted.size() > 1) {
            ctx.propagateAs(deleted.toArray(new byte[0][]));
        }
        if (error != null) {
            throw new RedisError(error);
        }
        if (replies.failure() != null) {
            throw ioError(replies.failure());
        }
        ctx.reply().ok();
    }

    private static RedisError ioError(MigrationLink.Failure failure) {
        if (MigrationLink.Failure.CONNECTING.equals(failure.phase())) {
            return new RedisError("IOERR error or timeout connecting to the client");
        }
        return new RedisError("IOERR error or timeout " + failure.phase() + " to target instance");
    }

    private MigrationLink.Replies exchange(String host, int port, long timeout, List<byte[][]> commands) {
        try (MigrationLink link = link(host, port, timeout)) {
            return link.exchange(commands);
        }
    }

    /** A node of this simulated cluster is called directly; anything else gets a socket. */
    private MigrationLink link(String host, int port, long timeout) {
        if (cluster.enabled()) {
            ClusterNodeInfo node = cluster.topology().nodeOnPort(port);
            if (node != null && sameHost(host, node.host())) {
                // the source itself cannot answer while it runs MIGRATE: as Redis, it reads nothing back
                return new PeerMigrationLink(node == cluster.myself() ? null : cluster.topology().peer(node));
            }
        }
        return new SocketMigrationLink(host, port, timeout);
    }

    private static boolean sameHost(String host, String nodeHost) {
        if (host.equals(nodeHost)) {
            return true;
        }
        try {
            InetAddress address = InetAddress.getByName(host);
            return address.isLoopbackAddress() || address.isAnyLocalAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** atoi, as Redis reads MIGRATE's port: leading digits, 0 when there are none. */
    private static int atoi(String text) {
        int i = 0;
        long value = 0;
        boolean negative = false;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        if (i < text.length() && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
            negative = text.charAt(i) == '-';
            i++;
        }
        while (i < text.length() && Character.isDigit(text.charAt(i)) && value < Integer.MAX_VALUE) {
            value = value * 10 + (text.charAt(i++) - '0');
        }
        return (int) (negative ? -value : value);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
