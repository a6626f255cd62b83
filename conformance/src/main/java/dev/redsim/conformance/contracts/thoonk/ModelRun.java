package dev.redsim.conformance.contracts.thoonk;

import dev.redsim.conformance.target.RedisTarget;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Runs one generated history against the implementation and the model side by side: after every step the
 * answers must agree and the real keys must equal the model's (which includes conservation and FIFO order);
 * at the end the job.finish events must be exactly one per committed finish with a result.
 */
final class ModelRun {
    private final RedisTarget target;
    private final ThoonkJobQueueFactory factory;
    private final JobQueueSettings settings;
    private String failure;

    ModelRun(RedisTarget target, ThoonkJobQueueFactory factory, JobQueueSettings settings) {
        this.target = target;
        this.factory = factory;
        this.settings = settings;
    }

    /** Why the last run failed, or null. */
    String failure() {
        return failure;
    }

    boolean holds(List<JobOp> history) {
        failure = null;
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        JobModel model = new JobModel(settings);
        List<String> jobs = new ArrayList<>();
        List<JobClaim> claims = new ArrayList<>();
        List<String> expectedEvents = new ArrayList<>();
        try (FeedFixture fixture = new FeedFixture(target);
             FinishEvents events = new FinishEvents(target, fixture.feed);
             ThoonkJobQueue queue = factory.open(target, fixture.feed, clock, settings, CommandHook.NONE)) {
            for (int step = 0; step < history.size(); step++) {
                JobOp op = history.get(step);
                String wrong = apply(op, queue, model, clock, jobs, claims, expectedEvents);
                if (wrong == null) {
                    JobState real = fixture.state();
                    if (!real.equals(model.state())) {
                        wrong = "keys differ from the model\n  redis: " + real + "\n  model: " + model.state();
                    } else if (real.conservationViolation() != null) {
                        wrong = real.conservationViolation();
                    }
                }
                if (wrong != null) {
                    failure = "step " + step + " " + op + ": " + wrong;
                    return false;
                }
            }
            List<String> seen = events.drain();
            if (!seen.equals(expectedEvents)) {
                failure = "job.finish events " + seen + ", expected exactly " + expectedEvents;
                return false;
            }
            return true;
        }
    }

    private static String apply(JobOp op, ThoonkJobQueue queue, JobModel model, ManualClock clock, List<String> jobs,
                                List<JobClaim> claims, List<String> events) {
        long now = clock.millis();
        if (op instanceof JobOp.Put put) {
            String id = put.high() ? queue.putHighPriority(put.item()) : queue.put(put.item());
            jobs.add(id);
            model.put(id, put.item(), put.high(), now);
            return null;
        }
        if (op instanceof JobOp.Get) {
            if (!model.hasAvailable()) {
                return null; // an empty get only waits for its timeout; covered once, not in every history
            }
            JobClaim expected = model.get(now);
            JobClaim got = queue.get(Duration.ofSeconds(2));
            claims.add(got);
            return same(got, expected);
        }
        if (op instanceof JobOp.Advance advance) {
            clock.advance(advance.millis());
            return null;
        }
        if (op instanceof JobOp.Maintain) {
            return same(queue.maintain(), model.maintain(now));
        }
        if (op instanceof JobOp.Retry retry) {
            return jobs.isEmpty() ? null : same(queue.retry(pick(jobs, retry.job())), model.retry(pick(jobs, retry.job()), now));
        }
        if (op instanceof JobOp.Retract retract) {
            return jobs.isEmpty() ? null : same(queue.retract(pick(jobs, retract.job())), model.retract(pick(jobs, retract.job())));
        }
        if (claims.isEmpty()) {
            return null;
        }
        if (op instanceof JobOp.Finish finish) {
            JobClaim claim = pick(claims, finish.claim());
            boolean done = model.finish(claim);
            if (done && finish.result() != null) {
                events.add(claim.id() + "\u0000" + finish.result());
            }
            return same(queue.finish(claim, finish.result()), done);
        }
        if (op instanceof JobOp.Cancel cancel) {
            JobClaim claim = pick(claims, cancel.claim());
            String wrong = same(queue.cancel(claim), model.cancel(claim));
            return wrong != null ? wrong : same(queue.failures(claim.id()), model.failures(claim.id()));
        }
        if (op instanceof JobOp.Stall stall) {
            JobClaim claim = pick(claims, stall.claim());
            return same(queue.stall(claim), model.stall(claim));
        }
        throw new IllegalArgumentException("unknown op " + op);
    }

    private static <T> T pick(List<T> list, int ref) {
        return list.get(ref % list.size());
    }

    private static String same(Object got, Object expected) {
        return Objects.equals(got, expected) ? null : "answered " + got + ", the model says " + expected;
    }
}
