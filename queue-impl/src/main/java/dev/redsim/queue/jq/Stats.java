package dev.redsim.queue.jq;

import redis.clients.jedis.Transaction;

/** Per-name counts by state, kept in the same transaction as every move (so the UI never recounts). */
final class Stats {
    private Stats() {
    }

    static void move(Transaction tx, JqKeys keys, String name, JobState from, JobState to) {
        tx.hincrBy(keys.stats(name), JqContext.bytes(from.wire()), -1);
        tx.hincrBy(keys.stats(name), JqContext.bytes(to.wire()), 1);
    }
}
