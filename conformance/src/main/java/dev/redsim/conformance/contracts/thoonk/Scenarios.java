package dev.redsim.conformance.contracts.thoonk;

import dev.redsim.conformance.target.RedisTarget;

import java.time.Duration;
import java.util.List;

/** The hand-written cases: fencing of a stale owner, the two-pass rule, an empty get. */
final class Scenarios {
    private final RedisTarget target;
    private final ThoonkJobQueueFactory factory;
    private final JobQueueSettings settings;

    Scenarios(RedisTarget target, ThoonkJobQueueFactory factory, JobQueueSettings settings) {
        this.target = target;
        this.factory = factory;
        this.settings = settings;
    }

    /** A worker whose claim timed out and was given to another cannot finish, cancel or stall it. */
    void staleOwnerIsFenced() {
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        try (FeedFixture fixture = new FeedFixture(target);
             FinishEvents events = new FinishEvents(target, fixture.feed);
             ThoonkJobQueue slow = open(fixture, clock, CommandHook.NONE);
             ThoonkJobQueue fresh = open(fixture, clock, CommandHook.NONE);
             ThoonkJobQueue maintainer = open(fixture, clock, CommandHook.NONE)) {
            String id = slow.put("work");
            JobClaim stale = slow.get(Duration.ofSeconds(2));
            clock.advance(settings.claimTimeoutMillis() + 1);
            check(maintainer.maintain().cancelled() == 1, "maintenance did not take back the timed-out job");
            JobClaim current = fresh.get(Duration.ofSeconds(2));
            check(current != null && current.id().equals(id), "the job was not redelivered");
            check(!slow.finish(stale, "stale"), "a stale owner finished a reclaimed job");
            check(!slow.cancel(stale), "a stale owner cancelled a reclaimed job");
            check(!slow.stall(stale), "a stale owner stalled a reclaimed job");
            check(fresh.finish(current, "fresh"), "the current owner could not finish");
            check(events.drain().equals(List.of(id + "\u0000fresh")), "expected only the current owner's event");
        }
    }

    /**
     * One maintenance pass while a worker is between its BRPOP and its claim must not requeue the job (that
     * would deliver it twice); the next pass then sees it claimed.
     */
    void onePassDuringAClaimRequeuesNothing() {
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        try (FeedFixture fixture = new FeedFixture(target);
             ThoonkJobQueue maintainer = open(fixture, clock, CommandHook.NONE)) {
            maintainer.put("work");
            int[] passes = new int[1];
            try (ThoonkJobQueue worker = open(fixture, clock, sent -> {
                if (sent == 1 && passes[0]++ == 0) {
                    check(maintainer.maintain().requeued() == 0, "a pass requeued a job being claimed");
                }
            })) {
                check(worker.get(Duration.ofSeconds(2)) != null, "the worker got nothing");
            }
            check(maintainer.maintain().requeued() == 0, "the second pass requeued a claimed job");
            JobState state = fixture.state();
            check(state.conservationViolation() == null && state.available().isEmpty(), "duplicated: " + state);
        }
    }

    /**
     * Two passes in a row (the clock moving less than the claim timeout between them) while a worker is between
     * its BRPOP and its claim requeue nothing: whether an id is unaccounted for "long enough" is a matter of
     * time, not of how many passes saw it.
     */
    void twoPassesDuringAClaimRequeueNothing() {
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        try (FeedFixture fixture = new FeedFixture(target);
             ThoonkJobQueue maintainer = open(fixture, clock, CommandHook.NONE)) {
            maintainer.put("work");
            int[] passes = new int[1];
            try (ThoonkJobQueue worker = open(fixture, clock, sent -> {
                if (sent == 1 && passes[0]++ == 0) {
                    check(maintainer.maintain().requeued() == 0, "the first pass requeued a job being claimed");
                    clock.advance(settings.claimTimeoutMillis() / 2);
                    check(maintainer.maintain().requeued() == 0, "the second pass requeued a job being claimed");
                }
            })) {
                check(worker.get(Duration.ofSeconds(2)) != null, "the worker got nothing");
            }
            JobState state = fixture.state();
            check(state.conservationViolation() == null && state.available().isEmpty(), "duplicated: " + state);
        }
    }

    /** An id popped by a worker that died is requeued once it has been unaccounted for longer than the timeout. */
    void aLostPopIsRequeuedAfterTheClaimTimeout() {
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        try (FeedFixture fixture = new FeedFixture(target);
             ThoonkJobQueue maintainer = open(fixture, clock, CommandHook.NONE)) {
            String id = maintainer.put("work");
            fixture.inspector.call("RPOP", "feed.ids:" + fixture.feed);
            check(maintainer.maintain().requeued() == 0, "requeued on first sight");
            clock.advance(settings.claimTimeoutMillis());
            check(maintainer.maintain().requeued() == 0, "requeued before the claim timeout had passed");
            clock.advance(1);
            check(maintainer.maintain().requeued() == 1, "not requeued after the claim timeout");
            check(fixture.state().available().equals(java.util.List.of(id)), "not back in line: " + fixture.state());
        }
    }

    /**
     * A get whose timeout is under a millisecond returns at once (BRPOP's 0 would mean "wait forever"). Bounded:
     * the call runs on its own thread and the check fails (closing the client) when it has not returned in 10 s.
     */
    void subMillisecondGetDoesNotBlock() {
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        try (FeedFixture fixture = new FeedFixture(target);
             ThoonkJobQueue worker = open(fixture, clock, CommandHook.NONE)) {
            for (Duration timeout : List.of(Duration.ofNanos(500_000), Duration.ZERO)) {
                java.util.concurrent.CompletableFuture<JobClaim> got =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> worker.get(timeout));
                try {
                    check(got.get(10, java.util.concurrent.TimeUnit.SECONDS) == null, "a job from an empty queue");
                } catch (java.util.concurrent.TimeoutException e) {
                    worker.close();
                    throw new AssertionError("get(" + timeout + ") on an empty queue blocked for 10 s");
                } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
                    throw new AssertionError("get(" + timeout + ") failed", e);
                }
            }
            String id = worker.put("work");
            JobClaim claim = worker.get(Duration.ZERO);
            check(claim != null && claim.id().equals(id), "get(0) did not take an available job");
        }
    }

    /** Get on an empty queue answers nothing after its timeout. */
    void emptyGetTimesOut() {
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        try (FeedFixture fixture = new FeedFixture(target);
             ThoonkJobQueue worker = open(fixture, clock, CommandHook.NONE)) {
            check(worker.get(Duration.ofMillis(10)) == null, "a get on an empty queue returned a job");
        }
    }

    private ThoonkJobQueue open(FeedFixture fixture, ManualClock clock, CommandHook hook) {
        return factory.open(target, fixture.feed, clock, settings, hook);
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }
}
