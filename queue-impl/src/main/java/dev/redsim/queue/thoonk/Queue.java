package dev.redsim.queue.thoonk;

import redis.clients.jedis.Jedis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * A simple queue: normal puts LPUSH and get BRPOPs, so it is FIFO; high priority puts RPUSH, ahead of all.
 * There is no claim: an item popped by a client that dies before its HGET is lost, as the contract accepts.
 */
public final class Queue {
    private final Jedis jedis;
    private final ThoonkKeys keys;

    public Queue(Jedis jedis, String feed) {
        this.jedis = jedis;
        this.keys = new ThoonkKeys(feed);
    }

    /** An item taken from the queue. */
    public record Item(String id, String item) {
    }

    public String put(String item) {
        return put(item, false);
    }

    public String putHighPriority(String item) {
        return put(item, true);
    }

    private String put(String item, boolean high) {
        String id = UUID.randomUUID().toString();
        var tx = jedis.multi();
        if (high) {
            tx.rpush(keys.ids(), id);
        } else {
            tx.lpush(keys.ids(), id);
        }
        tx.hset(keys.items(), id, item);
        tx.incr(keys.publishes());
        tx.exec();
        return id;
    }

    /**
     * @return the next item, or null when none came within the timeout (under a millisecond, zero included: no
     * wait)
     */
    public Item get(Duration timeout) {
        String id = TailPop.pop(jedis, keys.ids(), timeout);
        if (id == null) {
            return null;
        }
        var tx = jedis.multi();
        tx.hget(keys.items(), id);
        tx.hdel(keys.items(), id);
        List<Object> replies = tx.exec();
        return new Item(id, (String) replies.get(0));
    }

    public List<String> ids() {
        return jedis.lrange(keys.ids(), 0, -1);
    }
}
