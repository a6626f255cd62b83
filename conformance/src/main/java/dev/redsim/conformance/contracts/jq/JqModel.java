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

    private final JqSubject subject;
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
        Optional<Job> chosen = jobs.values().stream().filter(j -> j.state.equals("queued"))
                .min(Comparator.<Job>comparingInt(j -> j.spec.priority()).thenComparingLong(j -> j.id));
        chosen.ifPresent(j -> {
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
            j.eligibleAt = now + subject.backoff(j.attempts).toMillis();
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
