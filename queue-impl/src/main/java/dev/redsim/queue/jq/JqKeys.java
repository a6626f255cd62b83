package dev.redsim.queue.jq;

import java.nio.charset.StandardCharsets;

/**
 * Every key JQ touches, in one place. The spec names no keys (upstream used plain lists), so the layout is ours:
 * see docs/contracts/jq.md. The prefix is "jq:" by default; "{jq}:" puts every key in one Redis Cluster slot,
 * which the multi-key transactions need there.
 */
public final class JqKeys {
    private final String prefix;

    public JqKeys(String prefix) {
        this.prefix = prefix;
    }

    public static JqKeys standard() {
        return new JqKeys("jq:");
    }

    /** What every key starts with: the scripts build a job's own keys from it (so on Cluster it needs a hash tag). */
    public String prefix() {
        return prefix;
    }

    /** A key of the namespace's slot, to route by: on a Redis Cluster every key with this prefix lives where it does. */
    public byte[] slotKey() {
        return sequence();
    }

    /** INCR counter: job ids, which are also the enqueue order. */
    public byte[] sequence() {
        return key("seq");
    }

    /** Hash: the job's attributes and its current state. */
    public byte[] job(long id) {
        return key("job:" + id);
    }

    /** Sorted set of eligible jobs: score = priority, member = zero-padded id, so ties go in enqueue order. */
    public byte[] ready() {
        return key("ready");
    }

    /** Sorted set of failed jobs waiting out their backoff: score = epoch ms at which they become eligible. */
    public byte[] delayed() {
        return key("delayed");
    }

    /** Sorted set of dispatched jobs: score = epoch ms by which the worker must answer (the timeout). */
    public byte[] running() {
        return key("running");
    }

    /** Sorted sets of finished jobs, score = finish epoch ms; trimmed to the newest N by maintenance. */
    public byte[] succeeded() {
        return key("succeeded");
    }

    public byte[] failed() {
        return key("failed");
    }

    /** List of MessagePack failure records (every failed attempt, retried or not), newest first, capped. */
    public byte[] failures() {
        return key("failures");
    }

    /** String: the kept outcome of a keep_result job, until read once or past retention. */
    public byte[] result(long id) {
        return key("result:" + id);
    }

    /** Sorted set of kept results: member = id, score = epoch ms after which the result is gone. */
    public byte[] results() {
        return key("results");
    }

    /** Hash: constraint id -> MessagePack definition. */
    public byte[] constraints() {
        return key("constraints");
    }

    /** Sorted set of dispatch times of jobs a constraint matched (member id:attempt): the rate window's log. */
    public byte[] constraintStarts(String constraint) {
        return key("constraint:" + constraint + ":starts");
    }

    /** Set of running job ids a constraint matched: its concurrency. */
    public byte[] constraintRunning(String constraint) {
        return key("constraint:" + constraint + ":running");
    }

    /** Set of job names ever enqueued (the UI's queues). */
    public byte[] names() {
        return key("names");
    }

    /** Hash per job name: state -> number of jobs in it now (succeeded/failed: ever). */
    public byte[] stats(String name) {
        return key("stats:" + name);
    }

    /** The sorted-set member of a job id: zero-padded so that equal scores order by id, i.e. by enqueue. */
    public static byte[] member(long id) {
        return String.format("%019d", id).getBytes(StandardCharsets.US_ASCII);
    }

    public static long idOf(byte[] member) {
        return Long.parseLong(new String(member, StandardCharsets.US_ASCII));
    }

    private byte[] key(String name) {
        return (prefix + name).getBytes(StandardCharsets.UTF_8);
    }
}
