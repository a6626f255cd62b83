package dev.redsim.simulator.commands.server;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.engine.Engine;
import dev.redsim.simulator.engine.RdbSnapshot;
import dev.redsim.simulator.engine.ReplicaLink;
import dev.redsim.simulator.engine.Replication;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.scripting.Scripting;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.version.RedisVersion;

import java.util.Arrays;

/**
 * Replication as a master (replication.c): SYNC and PSYNC (a full resynchronisation with an RDB of the current
 * data, or +CONTINUE from the backlog), REPLCONF (the replica's handshake and its ACKs), WAIT, ROLE, and
 * REPLICAOF / SLAVEOF NO ONE (it already is a master). Becoming a replica of another server is refused after
 * Redis's own checks: the simulator does not replicate from a master.
 */
public final class ReplicationCommands implements CommandFamily {
    private static final RedisError SYNTAX = new RedisError("ERR syntax error");
    private static final RedisError PENDING_OUTPUT = new RedisError("ERR SYNC and PSYNC are invalid with pending output");
    private static final RedisError TIMEOUT_NOT_INTEGER = new RedisError("ERR timeout is not an integer or out of range");
    private static final RedisError TIMEOUT_NEGATIVE = new RedisError("ERR timeout is negative");
    /** NET_HOST_STR_LEN: the longest address REPLCONF ip-address takes, its terminating NUL included. */
    private static final int NET_HOST_STR_LEN = 256;

    private final Scripting scripting;

    public ReplicationCommands(Scripting scripting) {
        this.scripting = scripting;
    }

    @Override
    public void register(CommandTable t) {
        t.handler("role", ReplicationCommands::role);
        t.handler("replicaof", ReplicationCommands::replicaOf);
        t.handler("slaveof", ReplicationCommands::replicaOf);
        t.handler("sync", ctx -> sync(ctx, false));
        t.handler("psync", ctx -> sync(ctx, true));
        t.handler("replconf", ReplicationCommands::replconf);
        t.handler("wait", ReplicationCommands::waitForReplicas);
    }

    /** A master's ROLE: "master", the offset, and per online replica its address, port and acknowledged offset. */
    private static void role(CommandContext ctx) {
        Replication replication = ctx.engine().replication();
        if (replication.upstream() != null) {
            // a replica: its master, the link's state (always connected here) and the offset it processed
            ctx.reply().array(5);
            ctx.reply().bulk("slave");
            ctx.reply().bulk(replication.upstream().host());
            ctx.reply().integer(replication.upstream().port());
            ctx.reply().bulk("connected");
            ctx.reply().integer(replication.offset());
            return;
        }
        var replicas = replication.replicas();
        ctx.reply().array(3);
        ctx.reply().bulk("master");
        ctx.reply().integer(replication.offset());
        ctx.reply().array(replicas.size());
        for (ReplicaLink link : replicas) {
            ctx.reply().array(3);
            ctx.reply().bulk(link.ip());
            ctx.reply().bulk(Integer.toString(link.listeningPort()));
            ctx.reply().bulk(Long.toString(link.ackOffset()));
        }
    }

    private static void replicaOf(CommandContext ctx) {
        if (ctx.is(1, "no") && ctx.is(2, "one")) {
            ctx.reply().ok();
            return;
        }
        Long port = Numbers.parseLongStrict(ctx.arg(2));
        if (port == null) {
            throw new RedisError("ERR Invalid master port");
        }
        throw new RedisError("ERR redsim does not replicate from a master: REPLICAOF host port is not supported");
    }

    /**
     * syncCommand: a replica (already one: ignored) asks for the data. PSYNC with our replication id and an offset
     * the backlog holds continues from there; anything else (PSYNC ? -1, SYNC) gets the whole data set.
     */
    private void sync(CommandContext ctx, boolean psync) {
        ClientConnection client = ctx.client();
        Engine engine = ctx.engine();
        Replication replication = engine.replication();
        if (replication.isReplica(client)) {
            return; // Redis ignores SYNC from a client that already is a replica
        }
        if (client.reply().hasPending()) {
            throw PENDING_OUTPUT; // the stream must start on a clean link
        }
        if (psync) {
            long offset = ctx.longArg(2);
            if (replication.tryContinue(client, ctx.text(1), offset)) {
                engine.stats().syncPartialOk++;
                return;
            }
            if (!ctx.text(1).startsWith("?")) {
                engine.stats().syncPartialErr++;
            }
        }
        engine.stats().syncFull++;
        replication.fullResync(client, psync, info -> RdbSnapshot.write(engine.databases(),
                RedisVersion.IMITATED.version(), engine.time().millis(), usedMemory(), info, functionsSection()));
    }

    /** The function libraries for the RDB: FUNCTION DUMP's payload without its version and checksum. */
    private byte[] functionsSection() {
        byte[] dump = scripting.functions().dump();
        return Arrays.copyOf(dump, dump.length - 10);
    }

    private static long usedMemory() {
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    /** replconfCommand: option-value pairs of the handshake, then +OK; ACK and GETACK answer nothing. */
    private static void replconf(CommandContext ctx) {
        if (ctx.argc() % 2 == 0) {
            throw SYNTAX;
        }
        Replication replication = ctx.engine().replication();
        ClientConnection client = ctx.client();
        for (int i = 1; i < ctx.argc(); i += 2) {
            if (ctx.is(i, "listening-port")) {
                long port = ctx.longArg(i + 1);
                replication.listeningPort(client, (int) port);
            } else if (ctx.is(i, "ip-address")) {
                if (ctx.arg(i + 1).length >= NET_HOST_STR_LEN) {
                    throw new RedisError("ERR REPLCONF ip-address provided by replica instance is too long: "
                            + ctx.arg(i + 1).length + " bytes");
                }
                replication.announcedIp(client, ctx.text(i + 1));
            } else if (ctx.is(i, "capa")) {
                replication.capa(client, ctx.text(i + 1));
            } else if (ctx.is(i, "ack")) {
                Long offset = Numbers.parseLongStrict(ctx.arg(i + 1));
                if (replication.isReplica(client) && offset != null) {
                    replication.acknowledged(client, offset);
                }
                return; // no reply, even to a client that is not a replica
            } else if (ctx.is(i, "getack")) {
                return; // a master has no master to acknowledge to
            } else if (ctx.is(i, "rdb-only")) {
                long value = ctx.longArg(i + 1); // an RDB-only client gets no stream: the simulator never sees one
                if (value < 0 || value > 1) {
                    throw new RedisError("ERR value is out of range, value must between 0 and 1");
                }
            } else {
                throw new RedisError("ERR Unrecognized REPLCONF option: " + ctx.text(i));
            }
        }
        ctx.reply().ok();
    }

    /**
     * WAIT numreplicas timeout: how many replicas acknowledged this client's last write; when fewer than asked, the
     * client blocks until enough do or the timeout (ms, 0: forever) passes, and then gets the count it reached.
     * Inside MULTI it cannot block and answers the count at once.
     */
    private static void waitForReplicas(CommandContext ctx) {
        long replicas = ctx.longArg(1);
        Long timeout = Numbers.parseLongStrict(ctx.arg(2));
        if (timeout == null) {
            throw TIMEOUT_NOT_INTEGER;
        }
        if (timeout < 0) {
            throw TIMEOUT_NEGATIVE;
        }
        long now = ctx.now();
        ClientConnection client = ctx.client();
        Replication replication = ctx.engine().replication();
        long offset = client.writeOffset();
        int acked = replication.countAcks(offset);
        if (acked >= replicas || client.denyBlocking()) {
            ctx.reply().integer(acked);
            return;
        }
        // a deadline past the end of time is none (Redis's sum overflows, and that client waits for ever)
        boolean forever = timeout == 0 || timeout > Long.MAX_VALUE - now;
        replication.blockForAcks(client, offset, replicas, forever ? 0 : now + timeout);
    }
}
