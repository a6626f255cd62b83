package dev.redsim.queue.thoonk;

import redis.clients.jedis.Jedis;

import java.util.UUID;

/**
 * Feed administration: create, delete and configure, each with its event carrying this instance's uuid (so an
 * instance can ignore its own events).
 */
public final class Feeds {
    private final Jedis jedis;
    private final String instance;

    public Feeds(Jedis jedis) {
        this(jedis, UUID.randomUUID().toString());
    }

    public Feeds(Jedis jedis, String instance) {
        this.jedis = jedis;
        this.instance = instance;
    }

    public String instance() {
        return instance;
    }

    /** @return false when the feed already existed (the contract aborts then, without an event) */
    public boolean create(String feed) {
        if (jedis.sadd(ThoonkKeys.FEEDS, feed) == 0) {
            return false;
        }
        jedis.publish(ThoonkKeys.NEWFEED, ThoonkKeys.payload(feed, instance));
        return true;
    }

    public boolean exists(String feed) {
        return jedis.sismember(ThoonkKeys.FEEDS, feed);
    }

    /** Removes the feed and every key it owns, with delfeed, atomically. @return false when there was no feed */
    public boolean delete(String feed) {
        ThoonkKeys keys = new ThoonkKeys(feed);
        return Watched.run(jedis, new String[] {ThoonkKeys.FEEDS}, j -> j.sismember(ThoonkKeys.FEEDS, feed), tx -> {
            tx.srem(ThoonkKeys.FEEDS, feed);
            tx.del(keys.all());
            tx.publish(ThoonkKeys.DELFEED, ThoonkKeys.payload(feed, instance));
        }) != null;
    }

    public void setConfig(String feed, String name, String value) {
        jedis.hset(new ThoonkKeys(feed).config(), name, value);
        jedis.publish(ThoonkKeys.CONFFEED, ThoonkKeys.payload(feed, instance));
    }

    public String getConfig(String feed, String name) {
        return jedis.hget(new ThoonkKeys(feed).config(), name);
    }
}
