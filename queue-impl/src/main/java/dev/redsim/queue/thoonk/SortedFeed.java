package dev.redsim.queue.thoonk;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ListPosition;

import java.util.List;
import java.util.Map;

/**
 * A feed ordered by hand: ids in a list, numbered by feed.idincr. Positions are published as ":end", "begin:",
 * ":id" (before id) and "id:" (after id).
 */
public final class SortedFeed {
    private final Jedis jedis;
    private final ThoonkKeys keys;

    public SortedFeed(Jedis jedis, String feed) {
        this.jedis = jedis;
        this.keys = new ThoonkKeys(feed);
    }

    public String append(String item) {
        return pushed(item, false);
    }

    public String prepend(String item) {
        return pushed(item, true);
    }

    private String pushed(String item, boolean atBegin) {
        String id = Long.toString(jedis.incr(keys.idIncr()));
        var tx = jedis.multi();
        if (atBegin) {
            tx.lpush(keys.ids(), id);
        } else {
            tx.rpush(keys.ids(), id);
        }
        tx.hset(keys.items(), id, item);
        tx.incr(keys.publishes());
        tx.publish(keys.publishChannel(), ThoonkKeys.payload(id, item));
        tx.publish(keys.positionChannel(), ThoonkKeys.payload(id, atBegin ? "begin:" : ":end"));
        tx.exec();
        return id;
    }

    /** @return false when the id is not in the feed */
    public boolean edit(String id, String item) {
        return Watched.run(jedis, new String[] {keys.items()}, j -> j.hexists(keys.items(), id), tx -> {
            tx.hset(keys.items(), id, item);
            tx.incr(keys.publishes());
            tx.publish(keys.publishChannel(), ThoonkKeys.payload(id, item));
        }) != null;
    }

    /** @return the new id, or null when the anchor id is not in the feed */
    public String publishBefore(String beforeId, String item) {
        return inserted(beforeId, item, ListPosition.BEFORE, ":" + beforeId);
    }

    public String publishAfter(String afterId, String item) {
        return inserted(afterId, item, ListPosition.AFTER, afterId + ":");
    }

    private String inserted(String anchor, String item, ListPosition where, String position) {
        String[] id = new String[1];
        List<Object> done = Watched.run(jedis, new String[] {keys.items()}, j -> {
            if (!j.hexists(keys.items(), anchor)) {
                return false;
            }
            id[0] = Long.toString(j.incr(keys.idIncr()));
            return true;
        }, tx -> {
            tx.linsert(keys.ids(), where, anchor, id[0]);
            tx.hset(keys.items(), id[0], item);
            tx.incr(keys.publishes());
            tx.publish(keys.publishChannel(), ThoonkKeys.payload(id[0], item));
            tx.publish(keys.positionChannel(), ThoonkKeys.payload(id[0], position));
        });
        return done == null ? null : id[0];
    }

    /**
     * Moves an id. @param relative ":end", "begin:", ":other" (before other) or "other:" (after other)
     * @return false when the id or the anchor is not in the feed
     * <p>An id moved before or after itself stays where it is (it already is next to itself); the move still
     * counts and announces its position. The contract's LREM then LINSERT would remove the id and then find no
     * anchor to insert it at, dropping it from feed.ids while its item stays.
     */
    public boolean move(String id, String relative) {
        String anchor = relative.equals(":end") || relative.equals("begin:") ? null
            : relative.startsWith(":") ? relative.substring(1) : relative.substring(0, relative.length() - 1);
        boolean stays = id.equals(anchor);
        return Watched.run(jedis, new String[] {keys.items()},
            j -> j.hexists(keys.items(), id) && (anchor == null || j.hexists(keys.items(), anchor)), tx -> {
                if (stays) {
                    tx.publish(keys.positionChannel(), ThoonkKeys.payload(id, relative));
                    return;
                }
                tx.lrem(keys.ids(), 1, id);
                if (relative.equals("begin:")) {
                    tx.lpush(keys.ids(), id);
                } else if (relative.equals(":end")) {
                    tx.rpush(keys.ids(), id);
                } else {
                    tx.linsert(keys.ids(), relative.startsWith(":") ? ListPosition.BEFORE : ListPosition.AFTER,
                        anchor, id);
                }
                tx.publish(keys.positionChannel(), ThoonkKeys.payload(id, relative));
            }) != null;
    }

    public boolean retract(String id) {
        return Watched.run(jedis, new String[] {keys.items()}, j -> j.hexists(keys.items(), id), tx -> {
            tx.lrem(keys.ids(), 1, id);
            tx.hdel(keys.items(), id);
            tx.publish(keys.retractChannel(), id);
        }) != null;
    }

    public List<String> ids() {
        return jedis.lrange(keys.ids(), 0, -1);
    }

    public String item(String id) {
        return jedis.hget(keys.items(), id);
    }

    public Map<String, String> all() {
        return jedis.hgetAll(keys.items());
    }
}
