package dev.redsim.conformance.contracts.conveyor;

import dev.redsim.conformance.contracts.ModelCheckedRun;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Runs one generated history against the implementation and the model side by side, checking after every step
 * that every job is in exactly one place and that it is the place the model says; then drains everything (time
 * far ahead, recovery, scheduler, claim and complete) and checks that nothing was stranded.
 */
final class HistoryRunner extends ModelCheckedRun<ConveyorOp> {
    private static final int DRAIN_ROUNDS = 40;

    private final RedisTarget target;
    private final ConveyorSubject subject;

    HistoryRunner(RedisTarget target, ConveyorSubject subject) {
        this.target = target;
        this.subject = subject;
    }

    @Override
    protected String run(List<ConveyorOp> history) {
        flush(target);
        ManualClock clock = new ManualClock(START_MILLIS);
        ConveyorModel model = new ConveyorModel(subject, START_MILLIS);
        List<Claimed> claims = new ArrayList<>();
        try (ConveyorPort port = subject.connect(target.host(), target.port(), clock);
             RespClient raw = new RespClient(target.host(), target.port())) {
            for (int i = 0; i < history.size(); i++) {
                String problem = step(history.get(i), port, model, clock, claims);
                if (problem == null) {
                    problem = compare(port, model);
                }
                if (problem == null) {
                    problem = ParentOrderInRedis.violation(raw, subject.keyPrefix(), port.places(ConveyorOp.QUEUES, model.uuids()), model);
                }
                if (problem == null) {
                    model.expectedPlaces().forEach((place, jobs) ->
                            coverage.merge(place.replaceAll(":.*", ""), jobs.size(), Integer::sum));
                }
                if (problem != null) {
                    return "step " + i + " " + history.get(i) + ": " + problem;
                }
            }
            return drain(port, model, clock, claims);
        }
    }

    private String step(ConveyorOp op, ConveyorPort port, ConveyorModel model, ManualClock clock,
                        List<Claimed> claims) {
        List<String> existing = new ArrayList<>(model.uuids());
        if (op instanceof ConveyorOp.Add a) {
                String uuid = "job-" + existing.size();
                String parent = a.parentPick() < 0 || existing.isEmpty() ? "" : existing.get(a.parentPick() % existing.size());
                String pred = a.predecessorPick() < 0 || existing.isEmpty() ? "" : existing.get(a.predecessorPick() % existing.size());
                long runAt = a.delayMillis() < 0 ? 0 : clock.millis() + a.delayMillis();
                JobSpec job = new JobSpec(uuid, ConveyorOp.QUEUES.get(a.queue()), parent, pred, runAt,
                        a.maxRetries(), ("payload " + uuid).getBytes());
                model.noteLateChild(job);
                port.add(job, a.deadParent());
                model.add(job, a.deadParent());
        } else if (op instanceof ConveyorOp.Claim c) {
                return claim(ConveyorOp.QUEUES.get(c.queue()), port, model, claims);
        } else if (op instanceof ConveyorOp.Complete c) {
                if (claims.isEmpty()) {
                    return null;
                }
                int n = c.claimPick() % claims.size();
                Claimed claimed = claims.get(n);
                boolean expected = model.owns(claimed.uuid(), n);
                boolean actual = port.complete(claimed);
                if (actual != expected) {
                    return "complete of claim " + n + " (" + claimed.uuid() + ") returned " + actual
                            + (expected ? " but the lease is current" : " but the lease is stale: fencing broken");
                }
                if (expected) {
                    model.complete(claimed.uuid());
                } else {
                    coverage.merge("fenced stale completions", 1, Integer::sum);
                }
        } else if (op instanceof ConveyorOp.Fail f) {
                if (claims.isEmpty()) {
                    return null;
                }
                int n = f.claimPick() % claims.size();
                Claimed claimed = claims.get(n);
                boolean expected = model.owns(claimed.uuid(), n);
                boolean actual = port.fail(claimed, "generated failure");
                if (actual != expected) {
                    return "fail of claim " + n + " returned " + actual + ", model expected " + expected;
                }
                if (expected) {
                    model.fail(claimed.uuid());
                }
        } else if (op instanceof ConveyorOp.Advance a) {
                clock.advance(a.millis());
                model.advance(a.millis());
        } else if (op instanceof ConveyorOp.Schedule) {
                port.runScheduler();
                model.runScheduler();
        } else if (op instanceof ConveyorOp.Recover) {
                port.recoverExpired();
                model.recoverExpired();
        }
        return null;
    }

    private String claim(String queue, ConveyorPort port, ConveyorModel model, List<Claimed> claims) {
        var allowed = model.claimable(queue);
        Optional<Claimed> got = port.claim(queue);
        if (got.isEmpty()) {
            return allowed.isEmpty() ? null : "claim on " + queue + " found nothing, model has " + allowed;
        }
        String uuid = got.get().uuid();
        if (!allowed.contains(uuid)) {
            return "claim on " + queue + " returned " + uuid + " (model's place: " + model.placeOf(uuid)
                    + "), expected one of " + allowed + " (FIFO / visibility)";
        }
        JobSpec job = model.job(uuid);
        if (job.runAtMillis() > model.now()) {
            return "job " + uuid + " delivered before its run-at";
        }
        if (got.get().retry() != model.retries(uuid)) {
            return "job " + uuid + " claimed with retry " + got.get().retry() + ", model " + model.retries(uuid);
        }
        model.claimed(uuid, claims.size());
        claims.add(got.get());
        return null;
    }

    /** Conservation first (each accepted job exactly once, nothing unknown), then the model's exact places. */
    static String compare(ConveyorPort port, ConveyorModel model) {
        Map<String, List<String>> actual = normalized(port.places(ConveyorOp.QUEUES, model.uuids()));
        Map<String, Integer> seen = new HashMap<>();
        actual.values().forEach(l -> l.forEach(u -> seen.merge(u, 1, Integer::sum)));
        for (String uuid : model.uuids()) {
            int count = seen.getOrDefault(uuid, 0);
            if (count != 1) {
                return "conservation: job " + uuid + " found in " + count + " places: " + actual;
            }
        }
        if (seen.size() != model.uuids().size()) {
            return "conservation: unknown jobs in Redis: " + actual;
        }
        Map<String, List<String>> expected = model.expectedPlaces();
        if (!expected.equals(actual)) {
            return "places differ from the model\n  expected " + expected + "\n  actual   " + actual;
        }
        String order = model.parentOrderViolation();
        return order;
    }

    private static Map<String, List<String>> normalized(Map<String, List<String>> places) {
        Map<String, List<String>> out = new TreeMap<>();
        places.forEach((k, v) -> {
            if (!v.isEmpty()) {
                List<String> sorted = new ArrayList<>(v);
                sorted.sort(null);
                out.put(k, sorted);
            }
        });
        return out;
    }

    private String drain(ConveyorPort port, ConveyorModel model, ManualClock clock, List<Claimed> claims) {
        for (int round = 0; round < DRAIN_ROUNDS && !model.allFinal(); round++) {
            clock.advance(3_600_000);
            model.advance(3_600_000);
            port.recoverExpired();
            model.recoverExpired();
            port.runScheduler();
            model.runScheduler();
            for (String queue : ConveyorOp.QUEUES) {
                while (true) {
                    int before = claims.size();
                    String problem = claim(queue, port, model, claims);
                    if (problem != null) {
                        return "drain: " + problem;
                    }
                    if (claims.size() == before) {
                        break;
                    }
                    Claimed last = claims.get(before);
                    if (!port.complete(last)) {
                        return "drain: completing a current lease was refused";
                    }
                    model.complete(last.uuid());
                }
            }
            String problem = compare(port, model);
            if (problem != null) {
                return "drain round " + round + ": " + problem;
            }
        }
        return model.allFinal() ? null : "stranded: not every job finished after draining: " + model.expectedPlaces();
    }
}
