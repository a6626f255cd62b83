package dev.redsim.conformance.scenario;

import dev.redsim.conformance.resp.RespValue;

/**
 * One side of a scenario comparison, for one run of one scenario: a live server (its connections, one per
 * scenario client) or a recording of a server's replies. The runner drives both sides step by step.
 */
public interface ReplySource extends AutoCloseable {
    /** A short name for reports: "redis-server", "simulator", "recording". */
    String name();

    /** Sends the command of a CALL or SEND step (a recording has nothing to send). */
    void send(Step step);

    /** The reply to a CALL step, or the next reply or push of a RECEIVE step's client. */
    RespValue receive(Step step);

    /** Whether the server reached the step's count of blocked clients (a recording did, when it was made). */
    boolean awaitBlocked(Step step, long clients);

    @Override
    void close();
}
