package dev.redsim.queue.conveyor;

import redis.clients.jedis.Jedis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads where jobs are, for operators and for the contract suite's conservation check. Not atomic (it reads key
 * by key), so use it on a quiet Redis; it never writes.
 */
public final class ConveyorInspector {
    private final Jedis jedis;
    private final ConveyorKeys keys;

    public ConveyorInspector(Jedis jedis, ConveyorKeys keys) {
        this.jedis = jedis;
        this.keys = keys;
    }

    /**
     * @return place name -> uuids found there, for the given queues and for the lists of the given jobs. Place
     *     names: queue:&lt;q&gt;, scheduled, children:&lt;parent&gt;, onComplete:&lt;pred&gt;, running, waiting,
     *     done, failed.
     */
    public Map<String, List<String>> places(Collection<String> queues, Collection<String> uuids) {
        Map<String, List<String>> places = new LinkedHashMap<>();
        for (String queue : queues) {
            places.put("queue:" + queue, jobUuids(jedis.lrange(keys.queue(queue), 0, -1)));
        }
        places.put("scheduled", jobUuids(jedis.zrange(keys.scheduled(), 0, -1)));
        for (String uuid : uuids) {
            putIfAny(places, "children:" + uuid, jobUuids(jedis.lrange(keys.children(uuid), 0, -1)));
            putIfAny(places, "onComplete:" + uuid, jobUuids(jedis.lrange(keys.onComplete(uuid), 0, -1)));
        }
        places.put("running", strings(jedis.zrange(keys.leases(), 0, -1)));
        places.put("waiting", strings(jedis.smembers(keys.waiting())));
        places.put("done", strings(jedis.smembers(keys.done())));
        places.put("failed", strings(jedis.smembers(keys.failed())));
        return places;
    }

    /** Uuids in a parent's active set (released children not finished yet). */
    public List<String> activeChildren(String parent) {
        return strings(jedis.smembers(keys.active(parent)));
    }

    private static void putIfAny(Map<String, List<String>> places, String name, List<String> uuids) {
        if (!uuids.isEmpty()) {
            places.put(name, uuids);
        }
    }

    private static List<String> jobUuids(Collection<byte[]> serialized) {
        List<String> out = new ArrayList<>();
        for (byte[] job : serialized) {
            out.add(JobWire.decode(job).uuid());
        }
        return out;
    }

    private static List<String> strings(Collection<byte[]> members) {
        List<String> out = new ArrayList<>();
        for (byte[] m : members) {
            out.add(new String(m, StandardCharsets.UTF_8));
        }
        return out;
    }
}
