package dev.redsim.conformance.contracts.thoonk;

import dev.redsim.conformance.resp.RespClient;

import java.time.Duration;
import java.util.function.BiConsumer;

/**
 * An operation to interrupt, run on a prepared feed where job a is claimed ({@code claimA}), b is stalled and
 * c is available ({@code raw}: the suite's own client, to play a worker dying outside the implementation). {@code mayRemoveA}: the operation may legitimately delete job a (finish, retract).
 */
enum CrashCase {
    PUT(false, (q, s) -> q.put("d")),
    PUT_HIGH(false, (q, s) -> q.putHighPriority("d")),
    GET(false, (q, s) -> q.get(Duration.ofSeconds(2))),
    FINISH(true, (q, s) -> q.finish(s.claimA, "done")),
    CANCEL(false, (q, s) -> q.cancel(s.claimA)),
    STALL(false, (q, s) -> q.stall(s.claimA)),
    RETRY(false, (q, s) -> q.retry(s.b)),
    RETRACT(true, (q, s) -> q.retract(s.a)),
    /**
     * Job c popped by a worker that died before claiming it; the dying client is the maintainer, whose second
     * pass comes after the claim timeout (the id has been unaccounted for long enough to be requeued).
     */
    MAINTAIN_REQUEUE(false, (q, s) -> {
        s.raw.call("RPOP", "feed.ids:" + s.feed);
        q.maintain();
        s.clock.advance(s.settings.claimTimeoutMillis() + 1);
        q.maintain();
    }),
    MAINTAIN_TIMEOUT(false, (q, s) -> {
        s.clock.advance(s.settings.claimTimeoutMillis() + 1);
        q.maintain();
    });

    final boolean mayRemoveA;
    final BiConsumer<ThoonkJobQueue, Setup> operation;

    CrashCase(boolean mayRemoveA, BiConsumer<ThoonkJobQueue, Setup> operation) {
        this.mayRemoveA = mayRemoveA;
        this.operation = operation;
    }

    /** The prepared feed. */
    static final class Setup {
        final ManualClock clock;
        final JobQueueSettings settings;
        final RespClient raw;
        final String feed;
        String a;
        String b;
        String c;
        JobClaim claimA;

        Setup(ManualClock clock, JobQueueSettings settings, RespClient raw, String feed) {
            this.clock = clock;
            this.settings = settings;
            this.raw = raw;
            this.feed = feed;
        }

        void prepare(ThoonkJobQueue healthy) {
            a = healthy.put("a");
            b = healthy.put("b");
            c = healthy.put("c");
            claimA = healthy.get(Duration.ofSeconds(2));
            JobClaim claimB = healthy.get(Duration.ofSeconds(2));
            if (!claimA.id().equals(a) || !claimB.id().equals(b) || !healthy.stall(claimB)) {
                throw new AssertionError("setup: FIFO get or stall failed: " + claimA + " " + claimB);
            }
        }
    }
}
