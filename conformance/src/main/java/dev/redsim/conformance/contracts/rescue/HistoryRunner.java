package dev.redsim.conformance.contracts.rescue;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.contracts.ModelCheckedRun;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs one generated history on three engines (workers w0..w2, one connection each, one manual clock) and on the
 * model side by side. After every step: the reply must be the model's, and the stored tasks (all labels, object
 * ids, ticks, expiries, gate states, Sync) must equal the model's.
 */
final class HistoryRunner extends ModelCheckedRun<RescueOp> {

    private final RedisTarget target;
    private final RescueSubject subject;

    HistoryRunner(RedisTarget target, RescueSubject subject) {
        this.target = target;
        this.subject = subject;
    }

    @Override
    protected String run(List<RescueOp> history) {
        flush(target);
        ManualClock clock = new ManualClock(START_MILLIS);
        RescueModel model = new RescueModel(START_MILLIS, subject.lease().toMillis(), subject.retention().toMillis());
        List<RescuePort> ports = new ArrayList<>();
        RespClient raw = subject.rawLayout() ? new RespClient(target.host(), target.port()) : null;
        try {
            for (String worker : RescueOp.WORKERS) {
                ports.add(subject.connect(target.host(), target.port(), clock, worker));
            }
            List<RescueTask> claims = new ArrayList<>();
            for (int i = 0; i < history.size(); i++) {
                countStep();
                String problem = step(history.get(i), ports, model, clock, claims);
                if (problem == null) {
                    List<RescueTask> actual = ports.get(0).list();
                    if (!actual.equals(model.tasks())) {
                        problem = "stored tasks differ from the model\n  expected " + model.tasks()
                                + "\n  actual   " + actual;
                    }
                }
                if (problem == null && raw != null) {
                    problem = RawRescueKeys.difference(raw, model);
                }
                if (problem != null) {
                    return "step " + i + " " + history.get(i) + ": " + problem;
                }
            }
            return null;
        } finally {
            ports.forEach(RescuePort::close);
            if (raw != null) {
                raw.close();
            }
            model.coverage.forEach((k, v) -> coverage.merge(k, v, Integer::sum));
        }
    }

    private String step(RescueOp op, List<RescuePort> ports, RescueModel model, ManualClock clock,
                        List<RescueTask> claims) {
        if (op instanceof RescueOp.Create c) {
            return same("create", ports.get(0).create(c.task()), model.create(c.task()));
        } else if (op instanceof RescueOp.Search s) {
            Optional<RescueTask> got = ports.get(s.worker()).search();
            got.ifPresent(claims::add);
            return same("search by " + RescueOp.WORKERS.get(s.worker()), got,
                    model.search(RescueOp.WORKERS.get(s.worker())));
        } else if (op instanceof RescueOp.Work k) {
            int before = claims.size();
            String problem = step(new RescueOp.Search(k.worker()), ports, model, clock, claims);
            if (problem != null || claims.size() == before) {
                return problem;
            }
            // Claim pick 0 is the latest claim: the one just made.
            return step(new RescueOp.Delete(0, k.latest()), ports, model, clock, claims);
        } else if (op instanceof RescueOp.Delete d) {
            if (claims.isEmpty()) {
                return null;
            }
            RescueTask copy = claims.get(claimIndex(d.claimPick(), claims.size()));
            if (d.latest() != null) {
                copy = copy.withSync(Map.of(RescueOp.LATEST, d.latest()));
            }
            String worker = copy.core().get(RescueTask.WORKER);
            return same("delete of " + copy, ports.get(RescueOp.WORKERS.indexOf(worker)).delete(copy),
                    model.delete(copy, worker));
        } else if (op instanceof RescueOp.Extend e) {
            if (claims.isEmpty()) {
                return null;
            }
            RescueTask copy = claims.get(claimIndex(e.claimPick(), claims.size()));
            String worker = copy.core().get(RescueTask.WORKER);
            Optional<RescueTask> got = ports.get(RescueOp.WORKERS.indexOf(worker)).extend(copy);
            got.ifPresent(claims::add);
            return same("extend of " + copy, got, model.extend(copy, worker));
        } else if (op instanceof RescueOp.DeleteUnowned d) {
            List<RescueTask> unowned = model.tasks().stream()
                    .filter(t -> t.isTemplate() || t.method().equals("all")).toList();
            if (unowned.isEmpty()) {
                return null;
            }
            RescueTask copy = unowned.get(d.pick() % unowned.size());
            if (d.bypass()) {
                copy = copy.withCoreLabel(RescueTask.BYPASS, "true");
            }
            return same("delete of " + copy, ports.get(0).delete(copy), model.delete(copy, "w0"));
        } else if (op instanceof RescueOp.Exists e) {
            return same("exists " + e.query(), ports.get(1).exists(e.query()), model.exists(e.query()));
        } else if (op instanceof RescueOp.Expire e) {
            return same("expire", ports.get(e.worker()).expire(), model.expire());
        } else if (op instanceof RescueOp.Ticker t) {
            return same("ticker", ports.get(t.worker()).ticker(), model.ticker());
        } else if (op instanceof RescueOp.Advance a) {
            clock.advance(a.millis());
            model.advance(a.millis());
        }
        return null;
    }

    /** Picks below 700 take one of the two latest claims (mostly current), the rest any claim (mostly stale). */
    private static int claimIndex(int pick, int claims) {
        return pick < 700 ? claims - 1 - pick % Math.min(2, claims) : pick % claims;
    }

    private static String same(String what, Object actual, Object expected) {
        return actual.equals(expected) ? null : what + " returned " + actual + ", the model expected " + expected;
    }
}
