package dev.redsim.conformance.contracts.runtime;

import dev.redsim.conformance.contracts.thoonk.ManualClock;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * A worker runtime under test (a handler, a concurrency, heartbeat, recovery, graceful stop) over one queue of its
 * contract. One subject per test: it picks fresh key names, so runs never see each other's jobs.
 */
public interface RuntimeSubject {
    /** Adds {@code n} jobs on a plain connection; returns their ids as the handler will see them. */
    List<String> enqueue(String host, int port, ManualClock clock, int n);

    /**
     * Starts a runtime whose every connection goes to host:port and whose every reading of time comes from
     * {@code clock}; it runs its own upkeep (recovery of expired leases, scheduler, maintenance) as in production.
     */
    Running start(String host, int port, ManualClock clock, int concurrency, Handler handler);

    /**
     * Starts a runtime as it runs in production, on a host whose own wall clock reads {@code hostClock} (skewed
     * from the other hosts'): the runtime takes its time wherever it does in production.
     */
    Running startOnHost(String host, int port, java.time.Clock hostClock, int concurrency, Handler handler);

    /** Of {@code ids}, those not finished yet (still queued, leased, scheduled or lost). */
    Set<String> unfinished(String host, int port, Collection<String> ids);

    /** How long a claim is exclusive. */
    Duration lease();

    /** A started runtime. */
    interface Running {
        /** The runtime's graceful stop: stop claiming, finish or hand back what it holds within {@code grace}. */
        void stop(Duration grace);

        /** True once stop has begun (no claim any more). */
        boolean stopping();

        /** One round of the runtime's upkeep now (recovery of expired leases, scheduler, maintenance). */
        void upkeepNow();
    }

    /** The user's code: one run of the job {@code id}, whose lease ends at {@code deadline} unless renewed. */
    interface Handler {
        void run(String id, java.time.Instant deadline) throws Exception;
    }
}
