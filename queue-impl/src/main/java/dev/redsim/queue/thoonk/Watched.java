package dev.redsim.queue.thoonk;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The contract's optimistic loop: WATCH, check, MULTI, queue, EXEC; when EXEC returns nil (a watched key
 * changed), start again at WATCH, at most {@link #MAX_ATTEMPTS} times: a feed that others write without pause
 * must not keep a caller spinning (the contract's loop has no bound). A failed check UNWATCHes and reports false.
 */
final class Watched {
    /** Attempts before an operation gives up; each failed one means another client changed a watched key. */
    static final int MAX_ATTEMPTS = 100;

    private Watched() {
    }

    /**
     * @param check   reads under WATCH; false aborts the operation
     * @param queue   the commands to run atomically
     * @return the EXEC replies, or null when the check failed
     * @throws ThoonkConflictException when every attempt was aborted by a concurrent change (nothing written)
     */
    static List<Object> run(Jedis jedis, String[] watchKeys, Predicate<Jedis> check, Consumer<Transaction> queue) {
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
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
        throw new ThoonkConflictException("gave up after " + MAX_ATTEMPTS + " attempts: " + String.join(", ",
            watchKeys) + " changed under every one");
    }
}
