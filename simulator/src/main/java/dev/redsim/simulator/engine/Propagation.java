package dev.redsim.simulator.engine;

import dev.redsim.simulator.keyspace.Bytes;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What goes into the replication stream, and how it is grouped (Redis 7.0's also_propagate and
 * propagatePendingCommands in server.c). Every command call opens an execution unit; whatever the unit propagates
 * (its own arguments or their rewrite, what its handler added, keys that expired under it, the effects of a script
 * or of EXEC's queue) is collected, and when the outermost unit closes it is written out: one command alone, more
 * than one wrapped in MULTI / EXEC so that a replica applies them atomically. Outside any call (active expiry,
 * serving a blocked client) each propagation is written at once.
 */
public final class Propagation {
    private static final byte[][] MULTI = {"MULTI".getBytes(StandardCharsets.US_ASCII)};
    private static final byte[][] EXEC = {"EXEC".getBytes(StandardCharsets.US_ASCII)};
    private static final byte[] DEL = "DEL".getBytes(StandardCharsets.US_ASCII);

    private record Op(int db, byte[][] argv) {
    }

    private final Replication replication;
    private final List<Op> pending = new ArrayList<>();
    private int nesting;

    Propagation(Replication replication) {
        this.replication = replication;
    }

    /** A command call starts (call() in server.c): its propagations wait for the outermost call's end. */
    public void enterCall() {
        nesting++;
    }

    /** A command call ends; when it was the outermost one, what the unit collected is written. */
    public void exitCall() {
        if (--nesting == 0) {
            flush();
        }
    }

    /** Whether a command is running (a propagation now belongs to its unit). */
    public boolean inCall() {
        return nesting > 0;
    }

    /** alsoPropagate: one command of database {@code db} for the stream, in the current unit (or now, outside). */
    public void propagate(int db, byte[][] argv) {
        if (!replication.feeds()) {
            return; // nothing would be written (no replica ever attached, as Redis has no backlog then): no record
        }
        pending.add(new Op(db, argv));
        if (nesting == 0) {
            flush();
        }
    }

    /**
     * The server removed a key on its own (it expired, or maxmemory evicted it): replicas must remove it too, so a
     * DEL goes to the stream (Redis's propagateDeletion; UNLINK only with lazyfree-lazy-expire / -eviction, which
     * are off by default). Inside a command the DEL joins that command's unit, as in Redis 7.0.
     */
    public void serverDeleted(int db, Bytes key, boolean lazy) {
        byte[] name = lazy ? "UNLINK".getBytes(StandardCharsets.US_ASCII) : DEL;
        propagate(db, new byte[][] {name, key.bytes()});
    }

    private void flush() {
        if (pending.isEmpty()) {
            return;
        }
        if (pending.size() == 1) { // most units: one command, written alone, without a copy of the list
            Op op = pending.remove(0);
            replication.feed(op.db(), op.argv());
            return;
        }
        List<Op> ops = new ArrayList<>(pending);
        pending.clear();
        boolean wrap = ops.size() > 1;
        if (wrap) {
            replication.feed(ops.get(0).db(), MULTI); // the first command's SELECT comes before the MULTI
        }
        for (Op op : ops) {
            replication.feed(op.db(), op.argv());
        }
        if (wrap) {
            replication.feed(ops.get(ops.size() - 1).db(), EXEC);
        }
    }
}
