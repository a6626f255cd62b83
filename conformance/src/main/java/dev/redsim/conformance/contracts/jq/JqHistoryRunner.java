package dev.redsim.conformance.contracts.jq;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.contracts.ModelCheckedRun;
import dev.redsim.conformance.target.RedisTarget;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Runs one generated history against the implementation and {@link JqModel} side by side. After every step: the
 * same reply (claimed id and attempt, accepted or stale, expired count, taken result), every job in exactly the
 * state the model says, and attempts <= max_retry + 1.
 */
final class JqHistoryRunner extends ModelCheckedRun<JqOp> {

    private final RedisTarget target;
    private final JqSubject subject;

    JqHistoryRunner(RedisTarget target, JqSubject subject) {
        this.target = target;
        this.subject = subject;
    }

    @Override
    protected String run(List<JqOp> history) {
        flush(target);
        ManualClock clock = new ManualClock(START_MILLIS);
        JqModel model = new JqModel(subject, START_MILLIS);
        List<JqClaim> claims = new ArrayList<>();
        try (JqPort port = subject.connect(target.host(), target.port(), clock)) {
            port.putConstraint(JqModel.THROTTLE);
            for (int i = 0; i < history.size(); i++) {
                countStep();
                String problem = step(history.get(i), port, model, clock, claims);
                if (problem == null) {
                    problem = compare(port, model);
                }
                if (problem != null) {
                    return "step " + i + " " + history.get(i) + ": " + problem;
                }
            }
        }
        return null;
    }

    private String step(JqOp op, JqPort port, JqModel model, ManualClock clock, List<JqClaim> claims) {
        if (op instanceof JqOp.Enqueue e) {
            JqJob job = new JqJob(e.throttled() ? "b" : "a", null, e.priority(), e.maxRetry(), e.keepResult(), e.timeoutMillis());
            long id = port.enqueue(job);
            List<Long> ids = model.ids();
            if (!ids.isEmpty() && id <= ids.get(ids.size() - 1)) {
                return "ids must grow in enqueue order: got " + id + " after " + ids;
            }
            model.enqueue(id, job);
            return null;
        } else if (op instanceof JqOp.Claim) {
            Optional<JqClaim> expected = model.claim();
            Optional<JqClaim> actual = port.claim("w");
            count(actual.isPresent() ? "claim" : "claim-none");
            if (model.skippedThrottled) {
                count("claim-skipped-throttled");
            }
            actual.ifPresent(claims::add);
            return Objects.equals(expected, actual) ? null : "claimed " + actual + ", model chose " + expected;
        } else if (op instanceof JqOp.Succeed s) {
            if (claims.isEmpty()) {
                return null;
            }
            JqClaim claim = claims.get(s.pick() % claims.size());
            String result = "r" + claim.id() + "." + claim.attempt();
            return same("succeed " + claim, model.succeed(claim, result), port.succeed(claim, result));
        } else if (op instanceof JqOp.Fail f) {
            if (claims.isEmpty()) {
                return null;
            }
            JqClaim claim = claims.get(f.pick() % claims.size());
            return same("fail " + claim, model.fail(claim, f.shouldRetry(), "other"),
                    port.fail(claim, f.shouldRetry(), "boom"));
        } else if (op instanceof JqOp.Advance a) {
            clock.advance(a.millis());
            model.now += a.millis();
            return null;
        } else if (op instanceof JqOp.Expire) {
            int expected = model.expireOverdue();
            int actual = port.expireOverdue();
            count(expected > 0 ? "timeouts" : "timeouts-none");
            return expected == actual ? null : "expired " + actual + ", model " + expected;
        } else if (op instanceof JqOp.Take t) {
            List<Long> ids = model.ids();
            if (ids.isEmpty()) {
                return null;
            }
            long id = ids.get(t.pick() % ids.size());
            String expected = model.take(id);
            String actual = port.takeResult(id);
            count(expected == null ? "take-null" : "take-result");
            return Objects.equals(expected, actual) ? null : "result of " + id + ": " + actual + ", model " + expected;
        }
        throw new IllegalArgumentException(String.valueOf(op));
    }

    private String same(String what, boolean expected, boolean actual) {
        count(expected ? "report-accepted" : "report-stale");
        return expected == actual ? null : what + ": accepted=" + actual + ", model " + expected;
    }

    private String compare(JqPort port, JqModel model) {
        Map<String, List<Long>> expected = model.places();
        Map<String, List<Long>> actual = new TreeMap<>();
        port.places().forEach((state, ids) -> actual.put(state, ids.stream().sorted().toList()));
        if (!expected.equals(actual)) {
            return "places " + actual + ", model " + expected;
        }
        Map<String, List<Long>> usage = port.constraintUsage();
        if (!model.constraintUsage().equals(usage)) {
            return "constraint bookkeeping {id=[running, dispatches in window]} " + usage + ", model "
                    + model.constraintUsage();
        }
        Map<String, Map<String, Long>> stats = new TreeMap<>();
        port.stats().forEach((name, byState) -> byState.forEach((state, n) -> {
            if (n != 0) {
                stats.computeIfAbsent(name, k -> new TreeMap<>()).put(state, n);
            }
        }));
        if (!model.stats().equals(stats)) {
            return "stats " + stats + ", model " + model.stats();
        }
        for (long id : model.ids()) {
            JqModel.Job job = model.job(id);
            int attempts = port.attempts(id);
            if (attempts != job.attempts || attempts > job.spec.maxRetry() + 1) {
                return "job " + id + " attempts " + attempts + ", model " + job.attempts + ", max_retry "
                        + job.spec.maxRetry();
            }
        }
        return null;
    }

    private void count(String what) {
        coverage.merge(what, 1, Integer::sum);
    }
}
