package dev.redsim.queue.thoonk;

import java.time.Clock;
import java.time.Duration;

/**
 * @param concurrency  handler threads, one job each
 * @param claimTimeout the feed's maintenance claim timeout: the heartbeat renews claims three times within it
 * @param maxFailures  a run failing when the job already failed this many times stalls it instead of cancelling
 * @param pollWait     how long one blocking get (BRPOP) waits before the thread checks whether it should stop
 * @param clock        the one clock; null = Redis's TIME through the worker's pool (RedisClock)
 */
public record JobWorkerOptions(int concurrency, Duration claimTimeout, int maxFailures, Duration pollWait,
                               Clock clock) {
    public JobWorkerOptions {
        if (concurrency < 1 || maxFailures < 1) {
            throw new IllegalArgumentException("concurrency and maxFailures must be at least 1");
        }
    }

    public static JobWorkerOptions defaults() {
        return new JobWorkerOptions(1, Duration.ofSeconds(30), 3, Duration.ofSeconds(1), null);
    }

    public JobWorkerOptions withConcurrency(int n) {
        return new JobWorkerOptions(n, claimTimeout, maxFailures, pollWait, clock);
    }

    public JobWorkerOptions withClaimTimeout(Duration d) {
        return new JobWorkerOptions(concurrency, d, maxFailures, pollWait, clock);
    }

    public JobWorkerOptions withMaxFailures(int n) {
        return new JobWorkerOptions(concurrency, claimTimeout, n, pollWait, clock);
    }

    public JobWorkerOptions withPollWait(Duration d) {
        return new JobWorkerOptions(concurrency, claimTimeout, maxFailures, d, clock);
    }

    public JobWorkerOptions withClock(Clock c) {
        return new JobWorkerOptions(concurrency, claimTimeout, maxFailures, pollWait, c);
    }
}
