package dev.redsim.queue.rescue;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** The writes of one transition, gathered while reading under WATCH, sent as one MULTI/EXEC at the end. */
final class Writes {
    private final List<Consumer<Transaction>> steps = new ArrayList<>();

    Writes add(Consumer<Transaction> step) {
        steps.add(step);
        return this;
    }

    /** @return false when a watched key changed and nothing was applied */
    boolean exec(Jedis jedis) {
        Transaction tx = jedis.multi();
        steps.forEach(step -> step.accept(tx));
        List<Object> replies = tx.exec();
        if (replies == null) {
            return false;
        }
        for (Object reply : replies) {
            // Redis does not roll back after a failing command inside EXEC; surface it anyway.
            if (reply instanceof RuntimeException error) {
                throw new JedisDataException("command failed inside EXEC: " + error.getMessage(), error);
            }
        }
        return true;
    }
}
