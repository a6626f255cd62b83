package dev.redsim.simulator;

import dev.redsim.simulator.command.CommandProcessor;
import dev.redsim.simulator.engine.Engine;
import dev.redsim.simulator.engine.StreamReceiver;
import dev.redsim.simulator.engine.Upstream;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.keyspace.RedisValue;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.scripting.Functions;
import dev.redsim.simulator.server.ClientConnection;

import java.util.Map;

/**
 * A node of a simulated cluster as a replica of another node on the same thread (decision 0022): attached to its
 * master's replication stream as an in-process link, it applies each command as it arrives through its own call path,
 * as the master client (no slot check, no -READONLY, no replies), so its data, keyspace notifications, stats and
 * offsets follow the master's. Engine thread only.
 */
final class NodeReplication implements StreamReceiver {
    private final Engine engine;
    private final CommandProcessor commands;
    /** The function libraries, which a full synchronisation copies with the data (they travel in Redis's RDB). */
    private final Functions functions;
    private final String host;
    private final int port;
    /** The master this node replicates now, or null. */
    private NodeReplication master;
    /** This node's master client (Redis's server.master), through which the stream is applied. */
    private ClientConnection masterClient;
    /** This node's link as the master sees it (the replica's client on the master). */
    private ClientConnection linkOnMaster;

    NodeReplication(Engine engine, CommandProcessor commands, Functions functions, String host, int port) {
        this.engine = engine;
        this.commands = commands;
        this.functions = functions;
        this.host = host;
        this.port = port;
    }

    boolean isReplica() {
        return master != null;
    }

    boolean replicates(NodeReplication node) {
        return master == node;
    }

    /**
     * Starts replicating {@code newMaster}. {@code continued}: the two share their history up to now (a failover's
     * former master and the node that replaced it), so nothing is copied, as a PSYNC that continues; otherwise this
     * node loads the master's data first, as a full synchronisation does.
     */
    void replicate(NodeReplication newMaster, boolean continued) {
        detachFromMaster();
        if (!continued) {
            loadDataOf(newMaster.engine);
            functions.restore(newMaster.functions.dump(), Functions.RestorePolicy.FLUSH);
        }
        masterClient = socketless(engine);
        masterClient.masterLink(true);
        masterClient.reply().enabled(false); // a replica never answers its master's stream
        linkOnMaster = socketless(newMaster.engine);
        newMaster.engine.replication().attachInProcess(linkOnMaster, host, port, this);
        engine.replication().becomeReplicaOf(new Upstream(newMaster.host, newMaster.port),
                newMaster.engine.replication().replid(), newMaster.engine.replication().offset(), continued);
        master = newMaster;
    }

    /** Stops replicating and becomes a master (a failover promoted it, or its cluster's roles were reset). */
    void becomeMaster() {
        detachFromMaster();
        engine.replication().becomeMaster();
    }

    /** The node's process went down: its master forgets the link (the master's socket to it closed). */
    void stop() {
        detachFromMaster();
    }

    private void detachFromMaster() {
        if (master != null) {
            master.engine.replication().detachInProcess(linkOnMaster);
            master = null;
            masterClient = null;
            linkOnMaster = null;
        }
    }

    /** A full synchronisation's result without the RDB: every database replaced by a copy of the master's. */
    private void loadDataOf(Engine source) {
        long now = engine.time().millis();
        Database[] from = source.databases();
        Database[] to = engine.databases();
        for (int i = 0; i < to.length && i < from.length; i++) {
            to[i].clear();
            for (Map.Entry<Bytes, RedisValue> entry : from[i].entries().entrySet()) {
                long expireAt = from[i].expireAt(entry.getKey());
                if (expireAt >= 0 && expireAt <= now) {
                    continue; // expired on the master already: an RDB load leaves it out too
                }
                to[i].put(entry.getKey(), entry.getValue().copy());
                if (expireAt >= 0) {
                    to[i].setExpire(entry.getKey(), expireAt);
                }
            }
        }
    }

    @Override
    public void receive(byte[][] argv, int encodedLength) {
        engine.replication().receivedFromMaster(argv);
        if (isKeepalive(argv)) {
            return; // PING and REPLCONF GETACK: this link acknowledges every command as it applies it
        }
        commands.execute(masterClient, argv);
    }

    private static boolean isKeepalive(byte[][] argv) {
        String name = new String(argv[0], java.nio.charset.StandardCharsets.US_ASCII);
        return name.equalsIgnoreCase("ping") || name.equalsIgnoreCase("replconf");
    }

    private static ClientConnection socketless(Engine engine) {
        return new ClientConnection(engine.nextClientId(), null, new Reply(),
                engine, engine.time().millis());
    }
}
