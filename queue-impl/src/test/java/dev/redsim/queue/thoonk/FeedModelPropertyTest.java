package dev.redsim.queue.thoonk;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.property.Gen;
import dev.redsim.conformance.property.PropertyCheck;
import dev.redsim.conformance.target.RedisTarget;
import redis.clients.jedis.Jedis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Generated histories of publish / edit / retract / max_length changes on a Feed, against a model (ids oldest
 * first, an edit moving its id to newest): the keys equal the model after every step, and the events are exactly
 * one per committed change, in order (retractions of a publish before its publish or edit event).
 */
class FeedModelPropertyTest {
    sealed interface Op {
    }

    record Publish(int id, String item) implements Op {
    }

    record Retract(int id) implements Op {
    }

    record SetMax(int max) implements Op {
    }

    private static final Gen<Op> OP = Gen.frequency(List.of(
        new Gen.Weighted<>(6, random -> new Publish(random.nextInt(6), "v" + random.nextInt(5))),
        new Gen.Weighted<>(2, random -> new Retract(random.nextInt(6))),
        new Gen.Weighted<>(1, random -> new SetMax(random.nextInt(5)))));

    @AcrossTargets
    void feedsFollowTheModelWithOneEventPerChange(RedisTarget target) {
        PropertyCheck<Op> check = new PropertyCheck<>(Gen.listOf(OP, 1, 30), ops -> holds(target, ops), 200);
        long seed = PropertyCheck.runSeed();
        PropertyCheck.Result<Op> result = check.run(seed, 50);
        if (!result.passed()) {
            throw new AssertionError("feed model failed on " + target.name() + " (run seed " + seed + "): "
                + result.failure().shrunk());
        }
        System.out.println("thoonk feed model on " + target.name() + ": " + result.casesRun() + " histories, "
            + result.elementsRun() + " steps");
    }

    private static boolean holds(RedisTarget target, List<Op> ops) {
        String name = "feed-" + UUID.randomUUID();
        long[] now = {1_000};
        Map<String, String> model = new LinkedHashMap<>();
        List<ThoonkEvent> expected = new ArrayList<>();
        int max = 0;
        try (Jedis jedis = new Jedis(target.host(), target.port());
             EventRecorder events = new EventRecorder(target, jedis, List.of(name))) {
            Feeds feeds = new Feeds(jedis, "me");
            Feed feed = new Feed(jedis, name, new TickingClock(now));
            for (Op op : ops) {
                if (op instanceof Publish p) {
                    String id = "id" + p.id();
                    boolean isNew = !model.containsKey(id);
                    model.remove(id);
                    while (max > 0 && model.size() > max - 1) {
                        String oldest = model.keySet().iterator().next();
                        model.remove(oldest);
                        expected.add(new ThoonkEvent.Retracted(name, oldest));
                    }
                    model.put(id, p.item());
                    expected.add(isNew ? new ThoonkEvent.Published(name, id, p.item())
                        : new ThoonkEvent.Edited(name, id, p.item()));
                    if (feed.publish(id, p.item()) != isNew) {
                        return false;
                    }
                } else if (op instanceof Retract r) {
                    String id = "id" + r.id();
                    boolean existed = model.remove(id) != null;
                    if (existed) {
                        expected.add(new ThoonkEvent.Retracted(name, id));
                    }
                    if (feed.retract(id) != existed) {
                        return false;
                    }
                } else if (op instanceof SetMax s) {
                    max = s.max();
                    feeds.setConfig(name, "max_length", Integer.toString(max));
                    expected.add(new ThoonkEvent.FeedConfigured(name, "me"));
                }
                if (!feed.ids().equals(new ArrayList<>(model.keySet())) || !feed.all().equals(model)) {
                    return false;
                }
            }
            boolean sameEvents = events.upToNow().equals(expected);
            jedis.del(new ThoonkKeys(name).all());
            return sameEvents;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
