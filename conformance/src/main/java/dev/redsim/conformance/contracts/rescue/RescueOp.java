package dev.redsim.conformance.contracts.rescue;

import dev.redsim.conformance.property.Gen;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * One step of a generated history over a small label universe (so roots, gates and queries meet). Tasks and
 * claims are chosen by position modulo what exists when the step runs, so every sub-sequence the shrinker keeps is
 * still a valid history.
 */
sealed interface RescueOp {
    List<String> WORKERS = List.of("w0", "w1", "w2");
    String OBJECT = "x.api.io/object";
    String ACTION = "x.api.io/action";
    String LEAF = "y.api.io/leaf-";
    String LATEST = "x.api.io/latest";

    /** A task or template to create; Engine.Create's input. */
    record Create(RescueTask task) implements RescueOp {
    }

    record Search(int worker) implements RescueOp {
    }

    /**
     * The claim's owner deletes it, optionally handing back Sync state. Stale claims must be refused. Claim picks
     * below 700 choose among the latest claims, the others among all claims (see HistoryRunner).
     */
    record Delete(int claimPick, String latest) implements RescueOp {
    }

    /** A worker's ordinary loop once: Search, then Delete what it got (handing back Sync when latest is set). */
    record Work(int worker, String latest) implements RescueOp {
    }

    record Extend(int claimPick) implements RescueOp {
    }

    /** Deletes a template or broadcast task by id, with or without the bypass label. */
    record DeleteUnowned(int pick, boolean bypass) implements RescueOp {
    }

    record Exists(RescueTask query) implements RescueOp {
    }

    record Expire(int worker) implements RescueOp {
    }

    record Ticker(int worker) implements RescueOp {
    }

    record Advance(long millis) implements RescueOp {
    }

    /** Histories of every kind of task. */
    static Gen<RescueOp> gen() {
        return gen(18, 6, RescueOp::task);
    }

    /**
     * Histories of templates and their dependants (cron templates, gate templates, trigger tasks) and whole
     * minutes of time: gate cycles, ticks and Sync hand-backs happen many times per history.
     */
    static Gen<RescueOp> templateHeavyGen() {
        return gen(14, 20, r -> {
            RescueTask t = RescueTask.meta(meta(r));
            return switch (r.nextInt(6)) {
                case 0, 1 -> t.withCron(Map.of(RescueTask.EVERY, r.nextBoolean() ? "minute" : "15 minutes"));
                case 2 -> t.withGate(r.nextBoolean() ? Map.of(LEAF + 0, "waiting")
                        : Map.of(LEAF + 0, "waiting", LEAF + 1, "waiting"));
                default -> t.withGate(Map.of(LEAF + r.nextInt(2), "trigger"));
            };
        });
    }

    private static Gen<RescueOp> gen(int createWeight, int workWeight, Gen<RescueTask> tasks) {
        return Gen.frequency(List.of(
                new Gen.Weighted<>(workWeight, r -> new Work(r.nextInt(WORKERS.size()),
                        r.nextBoolean() ? "s" + r.nextInt(5) : null)),
                new Gen.Weighted<>(createWeight, r -> new Create(tasks.next(r))),
                new Gen.Weighted<>(28, r -> new Search(r.nextInt(WORKERS.size()))),
                new Gen.Weighted<>(14, r -> new Delete(r.nextInt(1000), r.nextBoolean() ? "s" + r.nextInt(5) : null)),
                new Gen.Weighted<>(4, r -> new Extend(r.nextInt(1000))),
                new Gen.Weighted<>(4, r -> new DeleteUnowned(r.nextInt(1000), r.nextInt(3) != 0)),
                new Gen.Weighted<>(8, r -> new Exists(query(r))),
                new Gen.Weighted<>(7, r -> new Expire(r.nextInt(WORKERS.size()))),
                new Gen.Weighted<>(12, r -> new Ticker(r.nextInt(WORKERS.size()))),
                new Gen.Weighted<>(9, r -> new Advance(Gen.elements(1_000L, 15_000L, 31_000L, 60_000L, 60_000L,
                        900_000L, 3_600_000L).next(r)))));
    }

    private static RescueTask task(SplittableRandom r) {
        RescueTask t = RescueTask.meta(meta(r));
        if (r.nextInt(4) == 0) {
            t = t.withRoot(Map.of(OBJECT, String.valueOf(r.nextInt(1, 4))));
        }
        switch (r.nextInt(10)) {
            case 0 -> t = t.withNode(Map.of(RescueTask.METHOD, "all"));
            case 1 -> t = t.withNode(Map.of(RescueTask.METHOD, "uni",
                    RescueTask.WORKER, WORKERS.get(r.nextInt(WORKERS.size()))));
            case 2, 3 -> t = t.withCron(Map.of(RescueTask.EVERY,
                    ModelSchedule.ALL.get(r.nextInt(ModelSchedule.ALL.size())).expression()));
            case 4 -> {
                Map<String, String> gate = new TreeMap<>();
                int mask = r.nextInt(1, 4);
                for (int leaf = 0; leaf < 2; leaf++) {
                    if ((mask & (1 << leaf)) != 0) {
                        gate.put(LEAF + leaf, "waiting");
                    }
                }
                t = t.withGate(gate);
            }
            case 5, 6, 7 -> t = t.withGate(Map.of(LEAF + r.nextInt(2), "trigger"));
            default -> {
            }
        }
        return t;
    }

    private static Map<String, String> meta(SplittableRandom r) {
        Map<String, String> meta = new TreeMap<>();
        int shape = r.nextInt(3);
        if (shape != 1) {
            meta.put(OBJECT, String.valueOf(r.nextInt(1, 4)));
        }
        if (shape != 0) {
            meta.put(ACTION, r.nextBoolean() ? "delete" : "update");
        }
        return meta;
    }

    private static RescueTask query(SplittableRandom r) {
        String key = Gen.elements(OBJECT, ACTION, "*").next(r);
        String value = Gen.elements("1", "2", "3", "delete", "update", "*").next(r);
        RescueTask q = RescueTask.meta(Map.of(key, value));
        return switch (r.nextInt(4)) {
            case 0 -> q.withCore(Map.of(RescueTask.WORKER, WORKERS.get(r.nextInt(WORKERS.size()))));
            case 1 -> q.withGate(Map.of(LEAF + r.nextInt(3), Gen.elements("waiting", "deleted", "*").next(r)));
            default -> q;
        };
    }
}
