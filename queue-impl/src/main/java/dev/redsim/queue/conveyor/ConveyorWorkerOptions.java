package dev.redsim.queue.conveyor;

import java.time.Duration;
import java.time.InstantSource;

/**
 * @param concurrency handler threads, one job each
 * @param conveyor    lease (the heartbeat renews it every third), backoff, retries of transactions
 * @param keys        the key prefix (the same for every process sharing the data)
 * @param idleCheck   how often idle threads look again without a wake (jobs that became due or were recovered
 *                    elsewhere) and how often this runtime runs the scheduler and lease recovery
 * @param clock       the one clock; null = Redis's TIME through the pool (RedisClock)
 */
public record ConveyorWorkerOptions(int concurrency, ConveyorOptions conveyor, ConveyorKeys keys, Duration idleCheck,
                                    InstantSource clock) {
    public ConveyorWorkerOptions {
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1");
        }
    }

    public static ConveyorWorkerOptions defaults() {
        return new ConveyorWorkerOptions(1, ConveyorOptions.defaults(), ConveyorKeys.standard(), Duration.ofSeconds(1),
            null);
    }

    public ConveyorWorkerOptions withConcurrency(int n) {
        return new ConveyorWorkerOptions(n, conveyor, keys, idleCheck, clock);
    }

    public ConveyorWorkerOptions withConveyor(ConveyorOptions o) {
        return new ConveyorWorkerOptions(concurrency, o, keys, idleCheck, clock);
    }

    public ConveyorWorkerOptions withKeys(ConveyorKeys k) {
        return new ConveyorWorkerOptions(concurrency, conveyor, k, idleCheck, clock);
    }

    public ConveyorWorkerOptions withIdleCheck(Duration d) {
        return new ConveyorWorkerOptions(concurrency, conveyor, keys, d, clock);
    }

    public ConveyorWorkerOptions withClock(InstantSource c) {
        return new ConveyorWorkerOptions(concurrency, conveyor, keys, idleCheck, c);
    }
}
