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
 * Generated histories of append / prepend / publish before and after / move / retract on a Sorted Feed, against a
 * list model. Moves pick their anchor among the feed's ids, the moved id itself included (a move relative to
 * itself leaves the order as it is: decision 12 of docs/contracts/thoonk.md). After every step feed.ids and
 * feed.items equal the model.
 */
class SortedFeedModelPropertyTest {
    sealed interface Op {
    }

    record Append(boolean atBegin) implements Op {
    }

    record Insert(int anchor, boolean after) implements Op {
    }

    /** @param where 0 = begin, 1 = end, 2 = before anchor, 3 = after anchor */
    record Move(int id, int where, int anchor) implements Op {
    }

    record Retract(int id) implements Op {
    }

    private static final Gen<Op> OP = Gen.frequency(List.of(
        new Gen.Weighted<>(3, random -> new Append(random.nextBoolean())),
        new Gen.Weighted<>(2, random -> new Insert(random.nextInt(8), random.nextBoolean())),
        new Gen.Weighted<>(4, random -> {
            int id = random.nextInt(8);
            // One move in three is relative to the moved item itself.
            int anchor = random.nextInt(3) == 0 ? id : random.nextInt(8);
            return new Move(id, random.nextInt(4), anchor);
        }),
        new Gen.Weighted<>(1, random -> new Retract(random.nextInt(8)))));

    @AcrossTargets
    void sortedFeedsFollowTheModel(RedisTarget target) {
        PropertyCheck<Op> check = new PropertyCheck<>(Gen.listOf(OP, 1, 30), ops -> holds(target, ops), 200);
        long seed = PropertyCheck.runSeed();
        PropertyCheck.Result<Op> result = check.run(seed, 60);
        if (!result.passed()) {
            throw new AssertionError("sorted feed model failed on " + target.name() + " (run seed " + seed + "): "
                + result.failure().shrunk());
        }
        System.out.println("thoonk sorted feed model on " + target.name() + ": " + result.casesRun()
            + " histories, " + result.elementsRun() + " steps");
    }

    private static boolean holds(RedisTarget target, List<Op> ops) {
        String name = "sorted-" + UUID.randomUUID();
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            SortedFeed feed = new SortedFeed(jedis, name);
            List<String> model = new ArrayList<>();
            Map<String, String> items = new LinkedHashMap<>();
            List<String> everId = new ArrayList<>();
            int n = 0;
            try {
                for (Op op : ops) {
                    String item = "v" + n++;
                    if (op instanceof Append a) {
                        String id = a.atBegin() ? feed.prepend(item) : feed.append(item);
                        model.add(a.atBegin() ? 0 : model.size(), id);
                        items.put(id, item);
                        everId.add(id);
                    } else if (op instanceof Insert i) {
                        String anchor = pick(everId, i.anchor());
                        String id = i.after() ? feed.publishAfter(anchor, item) : feed.publishBefore(anchor, item);
                        if (!model.contains(anchor)) {
                            if (id != null) {
                                return false;
                            }
                        } else {
                            if (id == null) {
                                return false;
                            }
                            model.add(model.indexOf(anchor) + (i.after() ? 1 : 0), id);
                            items.put(id, item);
                            everId.add(id);
                        }
                    } else if (op instanceof Move m) {
                        String id = pick(everId, m.id());
                        String anchor = pick(everId, m.anchor());
                        String relative = switch (m.where()) {
                            case 0 -> "begin:";
                            case 1 -> ":end";
                            case 2 -> ":" + anchor;
                            default -> anchor + ":";
                        };
                        boolean anchored = m.where() >= 2;
                        boolean ok = model.contains(id) && (!anchored || model.contains(anchor));
                        if (feed.move(id, relative) != ok) {
                            return false;
                        }
                        if (ok && !(anchored && anchor.equals(id))) {
                            model.remove(id);
                            int at = switch (m.where()) {
                                case 0 -> 0;
                                case 1 -> model.size();
                                case 2 -> model.indexOf(anchor);
                                default -> model.indexOf(anchor) + 1;
                            };
                            model.add(at, id);
                        }
                    } else if (op instanceof Retract r) {
                        String id = pick(everId, r.id());
                        if (feed.retract(id) != model.remove(id)) {
                            return false;
                        }
                        items.remove(id);
                    }
                    if (!feed.ids().equals(model) || !feed.all().equals(items)) {
                        return false;
                    }
                }
                return true;
            } finally {
                jedis.del(new ThoonkKeys(name).all());
            }
        }
    }

    private static String pick(List<String> ids, int index) {
        return ids.isEmpty() ? "none" : ids.get(index % ids.size());
    }
}
