package dev.redsim.queue.thoonk;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The contract's optimistic loop: WATCH, check, MULTI, queue, EXEC; when EXEC returns nil (a watched key
 * changed), start again at WATCH. A failed check UNWATCHes and reports false.
 */
final class Watched {
    private Watched() {
    }

    /**
     * @param check   reads under WATCH; false aborts the operation
     * @param queue   the commands to run atomically
     * @return the EXEC replies, or null when the check failed
     */
    static List<Object> run(Jedis jedis, String[] watchKeys, Predicate<Jedis> check, Consumer<Transaction> queue) {
        while (true) {
            jedis.watch(watchKeys);
            if (!check.test(jedis)) {
                jedis.unwatch();
                return null;
            }
            Transaction tx = jedis.multi();
            queue.accept(tx);
            List<Object> replies = tx.exec();
            if (replies != null) {
                return replies;
            }
        }
    }
}
