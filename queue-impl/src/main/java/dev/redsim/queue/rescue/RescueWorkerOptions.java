package dev.redsim.queue.rescue;

import java.time.Duration;
import java.time.InstantSource;

/**
 * @param concurrency handler threads, one task each
 * @param idleCheck   how often idle threads search without a wake, and how often Expire and Ticker run
 * @param clock       the one clock; null = Redis's TIME through the pool (RedisClock)
 */
public record RescueWorkerOptions(int concurrency, Duration idleCheck, InstantSource clock) {
    public RescueWorkerOptions {
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1");
        }
    }

    public static RescueWorkerOptions defaults() {
        return new RescueWorkerOptions(1, Duration.ofSeconds(1), null);
    }

    public RescueWorkerOptions withConcurrency(int n) {
        return new RescueWorkerOptions(n, idleCheck, clock);
    }

    public RescueWorkerOptions withIdleCheck(Duration d) {
        return new RescueWorkerOptions(concurrency, d, clock);
    }

    public RescueWorkerOptions withClock(InstantSource c) {
        return new RescueWorkerOptions(concurrency, idleCheck, c);
    }
}
