package dev.redsim.simulator;

import dev.redsim.simulator.cluster.ClusterPeer;
import dev.redsim.simulator.command.CommandProcessor;
import dev.redsim.simulator.engine.Engine;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.keyspace.SlotIndex;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.server.ClientConnection;

import java.nio.charset.StandardCharsets;

/**
 * A node of a simulated cluster reached by another node on the same thread: a client without a socket whose commands
 * run through the node's own call path (its ACL, cluster check, keyspace, notifications, propagation), so that MIGRATE
 * between two nodes gets exactly the replies a socket would bring back (decision 0016). Engine thread only.
 */
final class InProcessPeer implements ClusterPeer {
    private final Engine engine;
    private final CommandProcessor commands;

    InProcessPeer(Engine engine, CommandProcessor commands) {
        this.engine = engine;
        this.commands = commands;
    }

    /** delKeysInSlot: each key deleted, replicated as a deletion and signalled to WATCH and tracking. */
    @Override
    public void lostSlot(int slot) {
        Database db = engine.database(0);
        SlotIndex index = db.indexSlots();
        boolean lazy = engine.config().get("lazyfree-lazy-server-del").equals("yes");
        byte[] deletion = (lazy ? "UNLINK" : "DEL").getBytes(StandardCharsets.US_ASCII);
        for (Bytes key : index.keys(slot, index.count(slot))) {
            db.delete(key);
            engine.propagation().propagate(0, new byte[][] {deletion, key.bytes()});
            engine.signalModifiedKey(0, key);
            engine.addDirty(1);
        }
    }

    @Override
    public void leftSlots(java.util.function.IntPredicate slots) {
        engine.pubSub().removeShardChannels(dev.redsim.simulator.util.KeyHashSlot::of, slots);
        engine.flushPendingOutput();
    }

    @Override
    public Client connect() {
        ClientConnection client = new ClientConnection(engine.nextClientId(), null,
                new Reply(), engine, engine.time().millis());
        return args -> {
            commands.execute(client, args);
            if (!client.reply().hasPending()) {
                return null; // postponed (CLIENT PAUSE) or silenced: nothing came back in time
            }
            byte[] reply = client.reply().pending().toArray();
            client.reply().discardPending();
            int end = 0;
            while (end < reply.length && reply[end] != '\r') {
                end++;
            }
            return new String(reply, 0, end, StandardCharsets.UTF_8);
        };
    }
}
