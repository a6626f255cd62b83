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
