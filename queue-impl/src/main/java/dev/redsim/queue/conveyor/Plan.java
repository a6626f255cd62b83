package dev.redsim.queue.conveyor;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The writes of one transition, collected while reading under WATCH and sent as one MULTI/EXEC at the end, so a
 * transition is applied completely or not at all however many keys it spans.
 */
final class Plan {
    private final List<Consumer<Transaction>> steps = new ArrayList<>();

    Plan then(Consumer<Transaction> step) {
        steps.add(step);
        return this;
    }

    /** @return EXEC's replies, or null when a watched key changed and nothing was applied */
    List<Object> exec(Jedis jedis) {
        Transaction tx = jedis.multi();
        for (Consumer<Transaction> step : steps) {
            step.accept(tx);
        }
        List<Object> replies = tx.exec();
        if (replies != null) {
            for (Object reply : replies) {
                // Redis runs the rest of a transaction after a failing command (no rollback); surface it anyway.
                if (reply instanceof RuntimeException error) {
                    throw new JedisDataException("command failed inside EXEC: " + error.getMessage(), error);
                }
            }
        }
        return replies;
    }
}
