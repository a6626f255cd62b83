package dev.redsim.simulator.server;

import java.util.ArrayList;
import java.util.List;

/**
 * A client's transaction state (Redis's multiState plus the CLIENT_MULTI, CLIENT_DIRTY_EXEC and
 * CLIENT_DIRTY_CAS flags) and the keys it WATCHes.
 */
public final class MultiState {
    /**
     * A command accepted between MULTI and EXEC, with its table entry resolved at queue time; the entry is the
     * command layer's, which sits above the server, so it is kept here as an opaque object.
     */
    public record QueuedCommand(byte[][] args, Object command) {
    }

    private boolean active;
    private boolean dirtyExec;
    private boolean dirtyCas;
    private final List<QueuedCommand> queue = new ArrayList<>();
    private final List<WatchedKey> watched = new ArrayList<>();
    /** The queue's argument bytes plus a pointer per argument, kept as commands are queued. */
    private long queuedBytes;
    private boolean queuedDenyOom;

    /** True between MULTI and EXEC/DISCARD (and while EXEC runs the queue, as in Redis). */
    public boolean active() {
        return active;
    }

    public void begin() {
        this.active = true;
    }

    /** A command was refused while queueing: EXEC will answer EXECABORT. */
    public boolean dirtyExec() {
        return dirtyExec;
    }

    public void markDirtyExec() {
        this.dirtyExec = true;
    }

    /** A watched key changed: EXEC will answer a null array. */
    public boolean dirtyCas() {
        return dirtyCas;
    }

    public void markDirtyCas() {
        this.dirtyCas = true;
    }

    public void clearDirtyCas() {
        this.dirtyCas = false;
    }

    /**
     * Queues a command. A transaction that can no longer succeed keeps nothing (as Redis, which spares the
     * memory when a client pipelines on after an error), so CLIENT LIST's multi= stops growing then.
     */
    public void queue(byte[][] args, Object command, boolean denyOom) {
        if (!dirtyExec && !dirtyCas) {
            queue.add(new QueuedCommand(args, command));
            queuedBytes += 8L * args.length;
            for (byte[] arg : args) {
                queuedBytes += arg.length;
            }
            queuedDenyOom |= denyOom;
        }
    }

    /** Whether a queued command may grow memory (Redis's mstate.cmd_flags & CMD_DENYOOM): EXEC is then denyoom. */
    public boolean queuedDenyOom() {
        return queuedDenyOom;
    }

    public List<QueuedCommand> queued() {
        return queue;
    }

    /** Leaves MULTI: drops the queue and the flags (the watched keys are released by the engine). */
    public void reset() {
        active = false;
        dirtyExec = false;
        dirtyCas = false;
        queue.clear();
        queuedBytes = 0;
        queuedDenyOom = false;
    }

    /** The keys this client watches, in WATCH order. */
    public List<WatchedKey> watched() {
        return watched;
    }

    /**
     * Rough memory held by the queue, for CLIENT LIST's multi-mem: argument bytes plus a pointer per argument
     * (Redis counts its allocator's sizes, which the simulator does not have).
     */
    public long memoryEstimate() {
        return queuedBytes;
    }
}
