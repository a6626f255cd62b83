package dev.redsim.queue.thoonk;

import dev.redsim.queue.script.Transitions;

import java.time.Clock;
import java.time.Duration;

/**
 * @param concurrency  handler threads, one job each
 * @param claimTimeout the feed's maintenance claim timeout: the heartbeat renews claims three times within it
 * @param maxFailures  a run failing when the job already failed this many times stalls it instead of cancelling
 * @param pollWait     how long one blocking get (BRPOP) waits before the thread checks whether it should stop
 * @param clock        the one clock; null = Redis's TIME through the worker's pool (RedisClock)
 * @param maintenance  how often the worker runs the contract's maintenance (requeue of ids unaccounted for longer
 *                     than the claim timeout, cancel or stall of timed-out claims), as the other runtimes run their
 *                     recovery; Duration.ZERO = never (maintenance runs elsewhere). Passes of several workers may
 *                     overlap: each step re-checks under WATCH or is fenced by the claim's score
 * @param transitions  Lua scripts (default) or the WATCH/MULTI forms, for a Redis that forbids scripts
 */
public record JobWorkerOptions(int concurrency, Duration claimTimeout, int maxFailures, Duration pollWait,
                               Clock clock, Duration maintenance, Transitions transitions) {
    public JobWorkerOptions {
        if (concurrency < 1 || maxFailures < 1) {
            throw new IllegalArgumentException("concurrency and maxFailures must be at least 1");
        }
    }

    public static JobWorkerOptions defaults() {
        return new JobWorkerOptions(1, Duration.ofSeconds(30), 3, Duration.ofSeconds(1), null, Duration.ofSeconds(5),
            Transitions.SCRIPTS);
    }

    public JobWorkerOptions withConcurrency(int n) {
        return new JobWorkerOptions(n, claimTimeout, maxFailures, pollWait, clock, maintenance, transitions);
    }

    public JobWorkerOptions withClaimTimeout(Duration d) {
        return new JobWorkerOptions(concurrency, d, maxFailures, pollWait, clock, maintenance, transitions);
    }

    public JobWorkerOptions withMaxFailures(int n) {
        return new JobWorkerOptions(concurrency, claimTimeout, n, pollWait, clock, maintenance, transitions);
    }

    public JobWorkerOptions withPollWait(Duration d) {
        return new JobWorkerOptions(concurrency, claimTimeout, maxFailures, d, clock, maintenance, transitions);
    }

    public JobWorkerOptions withClock(Clock c) {
        return new JobWorkerOptions(concurrency, claimTimeout, maxFailures, pollWait, c, maintenance, transitions);
    }

    public JobWorkerOptions withMaintenance(Duration every) {
        return new JobWorkerOptions(concurrency, claimTimeout, maxFailures, pollWait, clock, every, transitions);
    }

    public JobWorkerOptions withTransitions(Transitions t) {
        return new JobWorkerOptions(concurrency, claimTimeout, maxFailures, pollWait, clock, maintenance, t);
    }
}
