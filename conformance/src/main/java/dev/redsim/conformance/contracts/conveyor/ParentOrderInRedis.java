package dev.redsim.conformance.contracts.conveyor;

import dev.redsim.conformance.resp.RespClient;

import java.util.List;
import java.util.Map;

/**
 * "A parent completes only after all its children", checked on what Redis holds rather than on the model: for
 * every parent the implementation reports done or failed, each of its children (except those added after it had
 * ended) is done or failed too, and the spec's own keys agree: {@code jobs:<parent>:active} and
 * {@code jobs:<parent>:children} are empty, but for children added after the parent ended (read with the kit's
 * client, not the implementation's), under the subject's key prefix ({@link ConveyorSubject#keyPrefix()}).
 */
final class ParentOrderInRedis {
    private ParentOrderInRedis() {
    }

    /** @return why it does not hold, or null */
    static String violation(RespClient raw, String prefix, Map<String, List<String>> places, ConveyorModel model) {
        for (String uuid : model.uuids()) {
            String parent = model.job(uuid).parent();
            if (parent.isEmpty() || model.lateChild(uuid) || !ended(places, parent)) {
                continue;
            }
            if (!ended(places, uuid)) {
                return "parent " + parent + " is final in Redis while its child " + uuid + " is not: " + places;
            }
            // Children added after the parent ended are placed as with a dead parent (recorded in its active
            // set): only those may be there.
            List<String> active = raw.call("SMEMBERS", prefix + "jobs:" + parent + ":active").children().stream()
                .map(v -> v.text()).filter(c -> !model.lateChild(c)).toList();
            long buffered = raw.call("LLEN", prefix + "jobs:" + parent + ":children").asLong();
            if (!active.isEmpty() || buffered != 0) {
                return "parent " + parent + " is final but Redis holds active children " + active + " and "
                    + buffered + " buffered";
            }
        }
        return null;
    }

    private static boolean ended(Map<String, List<String>> places, String uuid) {
        return places.getOrDefault("done", List.of()).contains(uuid)
            || places.getOrDefault("failed", List.of()).contains(uuid);
    }
}
