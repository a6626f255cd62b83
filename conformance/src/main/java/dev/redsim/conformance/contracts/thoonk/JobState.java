package dev.redsim.conformance.contracts.thoonk;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A job feed's state as the contract's keys hold it (or as the model predicts it), read with the kit's own
 * client so that the check does not trust the implementation under test.
 *
 * @param available feed.ids from head (LPUSH side) to tail (BRPOP side)
 */
public record JobState(List<String> available, Map<String, Long> claimed, Set<String> stalled,
                       Map<String, String> items, Map<String, Long> cancelled, Map<String, Long> published,
                       long finishes) {

    public static JobState read(RespClient client, String feed) {
        return new JobState(
            texts(client.call("LRANGE", "feed.ids:" + feed, "0", "-1")),
            longMap(client.call("ZRANGE", "feed.claimed:" + feed, "0", "-1", "WITHSCORES")),
            new TreeSet<>(texts(client.call("SMEMBERS", "feed.stalled:" + feed))),
            textMap(client.call("HGETALL", "feed.items:" + feed)),
            longMap(client.call("HGETALL", "feed.cancelled:" + feed)),
            longMap(client.call("ZRANGE", "feed.published:" + feed, "0", "-1", "WITHSCORES")),
            optionalLong(client.call("GET", "feed.finishes:" + feed)));
    }

    /**
     * Conservation: every job (item) is in exactly one of available, claimed, stalled, and nothing else is.
     * @return why it does not hold, or null
     */
    public String conservationViolation() {
        List<String> places = new ArrayList<>(available);
        places.addAll(claimed.keySet());
        places.addAll(stalled);
        Set<String> seen = new HashSet<>();
        for (String id : places) {
            if (!seen.add(id)) {
                return "job " + id + " is in two places (or twice in feed.ids): " + this;
            }
        }
        if (!seen.equals(items.keySet())) {
            return "items " + new TreeSet<>(items.keySet()) + " != ids+claimed+stalled " + new TreeSet<>(seen);
        }
        return null;
    }

    private static List<String> texts(RespValue reply) {
        List<String> out = new ArrayList<>();
        for (RespValue v : reply.children()) {
            out.add(v.text());
        }
        return out;
    }

    private static Map<String, String> textMap(RespValue reply) {
        List<String> flat = texts(reply);
        Map<String, String> out = new TreeMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            out.put(flat.get(i), flat.get(i + 1));
        }
        return out;
    }

    private static Map<String, Long> longMap(RespValue reply) {
        Map<String, Long> out = new TreeMap<>();
        textMap(reply).forEach((k, v) -> out.put(k, (long) Double.parseDouble(v)));
        return out;
    }

    private static long optionalLong(RespValue reply) {
        return reply.data() == null ? 0 : Long.parseLong(reply.text());
    }
}
