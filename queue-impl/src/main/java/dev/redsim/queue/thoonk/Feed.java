package dev.redsim.queue.thoonk;

import redis.clients.jedis.Jedis;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A plain feed: ids in a sorted set scored by publish time (ms), items in a hash, bounded by the config's
 * max_length (the oldest ids are retracted when a publish would exceed it).
 */
public final class Feed {
    private final Jedis jedis;
    private final ThoonkKeys keys;
    private final Clock clock;

    public Feed(Jedis jedis, String feed, Clock clock) {
        this.jedis = jedis;
        this.keys = new ThoonkKeys(feed);
        this.clock = clock;
    }

    /** Publishes or (same id) edits an item. @return true when the id was new (publish), false for an edit */
    public boolean publish(String id, String item) {
        String max = jedis.hget(keys.config(), "max_length");
        long maxLength = max == null ? 0 : Long.parseLong(max);
        List<String> oldest = new ArrayList<>();
        List<Object> replies = Watched.run(jedis, new String[] {keys.ids()}, j -> {
            // Keep the newest max-1 ids other than this one, so the feed holds at most max after the publish.
            // The contract's ZRANGE 0 -max counts the published id itself when it is an edit, so an edit
            // would shrink a full feed by one; excluding it first avoids that (docs/contracts/thoonk.md).
            oldest.clear();
            if (maxLength > 0) {
                // Bounded by the excess, not by the feed's size: an edit retracts one fewer.
                oldest.addAll(j.zrange(keys.ids(), 0, -maxLength));
                boolean edit = j.zscore(keys.ids(), id) != null;
                if (edit && !oldest.remove(id) && !oldest.isEmpty()) {
                    oldest.remove(oldest.size() - 1);
                }
            }
            return true;
        }, tx -> {
            for (String old : oldest) {
                tx.zrem(keys.ids(), old);
                tx.hdel(keys.items(), old);
                tx.publish(keys.retractChannel(), old);
            }
            tx.zadd(keys.ids(), clock.millis(), id);
            tx.incr(keys.publishes());
            tx.hset(keys.items(), id, item);
        });
        // The ZADD reply sits after the retractions (three replies each) and before INCR and HSET.
        boolean added = (Long) replies.get(replies.size() - 3) == 1L;
        jedis.publish(added ? keys.publishChannel() : keys.editChannel(), ThoonkKeys.payload(id, item));
        return added;
    }

    /** @return false when the id was not in the feed */
    public boolean retract(String id) {
        return Watched.run(jedis, new String[] {keys.ids()}, j -> j.zrank(keys.ids(), id) != null, tx -> {
            tx.zrem(keys.ids(), id);
            tx.hdel(keys.items(), id);
            tx.publish(keys.retractChannel(), id);
        }) != null;
    }

    public List<String> ids() {
        return jedis.zrange(keys.ids(), 0, -1);
    }

    public String item(String id) {
        return jedis.hget(keys.items(), id);
    }

    public Map<String, String> all() {
        return jedis.hgetAll(keys.items());
    }
}
