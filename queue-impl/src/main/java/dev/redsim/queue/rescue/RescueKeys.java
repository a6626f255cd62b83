package dev.redsim.queue.rescue;

/**
 * Every key of one queue, in one place. All share the hash tag {rescue:<queue>}, so a queue lives in one Redis
 * Cluster slot and its multi-key transactions work there. Ids are decimal object numbers.
 */
final class RescueKeys {
    private final String prefix;

    RescueKeys(String queue) {
        this.prefix = "{rescue:" + queue + "}:";
    }

    /** What every key of the queue starts with; the scripts build the per-task keys from it. */
    String prefix() {
        return prefix;
    }

    /** INCR counter of object ids. */
    String sequence() {
        return prefix + "seq";
    }

    /** Hash of one task's labels, fields "<section>:<label key>". */
    String task(String id) {
        return prefix + "task:" + id;
    }

    /** Set of every task and template id: Exists' candidates when no index narrows the query. */
    String all() {
        return prefix + "all";
    }

    /** Zset of unowned "any" tasks, score = object id (oldest first). */
    String available() {
        return prefix + "available";
    }

    /** Zset of unowned "uni" tasks addressed to one worker, score = object id. */
    String addressed(String worker) {
        return prefix + "uni:" + worker;
    }

    /** Zset of "all" tasks, score = object id; each is delivered once to every worker. */
    String broadcast() {
        return prefix + "broadcast";
    }

    /**
     * The id of the newest "all" task, written by every transaction that adds one. Such a transaction WATCHes it
     * before it takes its id (INCR), so "all" tasks become visible in id order: one committed after another has the
     * higher id. That is what lets a worker's cursor stand for every "all" task up to it.
     */
    String broadcastMark() {
        return prefix + "broadcast:last";
    }

    /** The highest "all" task id a worker has had, every lower one had or gone as well: where its Search resumes. */
    String cursor(String worker) {
        return prefix + "cursor:" + worker;
    }

    /** Set of the workers an "all" task was delivered to. */
    String deliveredTo(String id) {
        return prefix + "seen:" + id;
    }

    /** Zset of owned task ids, score = ownership expiry in epoch ms. */
    String owned() {
        return prefix + "owned";
    }

    /** Zset of cron template ids, score = next tick (tick+1) in epoch ms. */
    String cron() {
        return prefix + "cron";
    }

    /** Zset of addressed (all / uni) task ids not yet addressed, score = retention deadline in epoch ms. */
    String retention() {
        return prefix + "retention";
    }

    /** Set of the ids carrying label key=value in a section (length-prefixed key: any characters are safe). */
    String label(Task.Section section, String key, String value) {
        return prefix + "idx:" + section.field + ":" + key.length() + ":" + key + "=" + value;
    }

    /** Set of the ids carrying label key (any value) in a section: serves "*" values. */
    String labelKey(Task.Section section, String key) {
        return prefix + "key:" + section.field + ":" + key.length() + ":" + key;
    }

    /** A key of the queue's slot, to route by: on a Redis Cluster, every key of the queue lives where it does. */
    public byte[] slotKey() {
        return sequence().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * Pub/sub channel told after every transition that may have made a task searchable (create, delete firing a
     * gate, expire, ticker), so that worker runtimes wait instead of polling. Not a key, but it carries the queue's
     * hash tag: a shard channel (RescueOptions.withShardedWake) is then in the queue's slot.
     */
    public String wake() {
        return prefix + "wake";
    }
}
