package dev.redsim.conformance.contracts.jq;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The spec as an in-memory model, one job list in enqueue order. Selection: promote failed jobs whose backoff
 * passed, then the eligible job with the smallest priority, ties by enqueue order. A report counts only for the
 * attempt still running. A failure retries while should_retry and attempts <= max_retry; a timeout is a failure
 * with should_retry. A kept result is readable once, while now < finish + retention.
 */
final class JqModel {
    static final class Job {
        final long id;
        final JqJob spec;
        String state = "queued";
        int attempts;
        long deadline;
        long eligibleAt;
        String result;
        long resultExpires;

        Job(long id, JqJob spec) {
            this.id = id;
            this.spec = spec;
        }
    }

    /** Every history runs under this constraint: jobs named "b", one at a time, two starts per 3 s. */
    static final JqConstraintSpec THROTTLE = new JqConstraintSpec("throttle-b", "b", null, 2, 3_000, 1);

    private final JqSubject subject;
    /** Start times of "b" attempts, for the rate window. */
    private final List<Long> throttledStarts = new ArrayList<>();
    /** Whether the last claim passed over a throttled job that came first in (priority, enqueue) order. */
    boolean skippedThrottled;
    private final Map<Long, Job> jobs = new LinkedHashMap<>();
    long now;

    JqModel(JqSubject subject, long now) {
        this.subject = subject;
        this.now = now;
    }

    void enqueue(long id, JqJob spec) {
        jobs.put(id, new Job(id, spec));
    }

    List<Long> ids() {
        return new ArrayList<>(jobs.keySet());
    }

    Job job(long id) {
        return jobs.get(id);
    }

    Optional<JqClaim> claim() {
        for (Job j : jobs.values()) {
            if (j.state.equals("delayed") && j.eligibleAt <= now) {
                j.state = "queued";
            }
        }
        List<Job> eligible = jobs.values().stream().filter(j -> j.state.equals("queued"))
                .sorted(Comparator.<Job>comparingInt(j -> j.spec.priority()).thenComparingLong(j -> j.id)).toList();
        Optional<Job> chosen = eligible.stream().filter(j -> admitted(j)).findFirst();
        skippedThrottled = !eligible.isEmpty() && chosen.map(j -> j != eligible.get(0)).orElse(true);
        chosen.ifPresent(j -> {
            if (throttled(j)) {
                throttledStarts.add(now);
            }
            j.state = "running";
            j.attempts++;
            j.deadline = now + j.spec.timeoutMillis();
        });
        return chosen.map(j -> new JqClaim(j.id, j.attempts, j.spec.name()));
    }

    boolean succeed(JqClaim claim, String result) {
        Job j = running(claim);
        if (j == null) {
            return false;
        }
        finish(j, "succeeded", "success:" + result);
        return true;
    }

    boolean fail(JqClaim claim, boolean shouldRetry, String reason) {
        Job j = running(claim);
        if (j == null) {
            return false;
        }
        if (shouldRetry && j.attempts <= j.spec.maxRetry()) {
            j.state = "delayed";
            j.eligibleAt = now + JqBackoff.millis(subject.backoffBase(), subject.backoffCap(), j.attempts);
        } else {
            finish(j, "failed", "failure:" + reason);
        }
        return true;
    }

    int expireOverdue() {
        int n = 0;
        for (Job j : jobs.values()) {
            if (j.state.equals("running") && j.deadline <= now) {
                fail(new JqClaim(j.id, j.attempts, j.spec.name()), true, "timeout");
                n++;
            }
        }
        return n;
    }

    String take(long id) {
        Job j = jobs.get(id);
        String result = j.result != null && now < j.resultExpires ? j.result : null;
        j.result = null;
        return result;
    }

    Map<String, List<Long>> places() {
        Map<String, List<Long>> out = new TreeMap<>();
        for (String s : List.of("queued", "delayed", "running", "succeeded", "failed")) {
            out.put(s, new ArrayList<>());
        }
        jobs.values().forEach(j -> out.get(j.state).add(j.id));
        return out;
    }

    /** What the constraint's bookkeeping must hold now: {running "b" attempts, "b" dispatches in the window}. */
    Map<String, List<Long>> constraintUsage() {
        long inWindow = throttledStarts.stream().filter(t -> t > now - THROTTLE.windowMillis()).count();
        long running = jobs.values().stream().filter(x -> throttled(x) && x.state.equals("running")).count();
        return Map.of(THROTTLE.id(), List.of(running, inWindow));
    }

    /** Per name, jobs in each state (zero counts left out; finished jobs never leave their state here). */
    Map<String, Map<String, Long>> stats() {
        Map<String, Map<String, Long>> out = new TreeMap<>();
        for (Job j : jobs.values()) {
            out.computeIfAbsent(j.spec.name(), n -> new TreeMap<>()).merge(j.state, 1L, Long::sum);
        }
        return out;
    }

    private boolean throttled(Job j) {
        return j.spec.name().equals(THROTTLE.name());
    }

    /** A dispatch fits the constraint: fewer than limit starts in (now - window, now], fewer than max running. */
    private boolean admitted(Job j) {
        if (!throttled(j)) {
            return true;
        }
        long inWindow = throttledStarts.stream().filter(t -> t > now - THROTTLE.windowMillis()).count();
        long running = jobs.values().stream().filter(x -> throttled(x) && x.state.equals("running")).count();
        return inWindow < THROTTLE.rateLimit() && running < THROTTLE.concurrency();
    }

    private Job running(JqClaim claim) {
        Job j = jobs.get(claim.id());
        return j != null && j.state.equals("running") && j.attempts == claim.attempt() ? j : null;
    }

    private void finish(Job j, String state, String result) {
        j.state = state;
        if (j.spec.keepResult()) {
            j.result = result;
            j.resultExpires = now + subject.resultRetention().toMillis();
        }
    }
}
