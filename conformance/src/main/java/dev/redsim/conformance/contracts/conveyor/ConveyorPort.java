package dev.redsim.conformance.contracts.conveyor;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The operations the Conveyor suite drives, on one connection. Implement this (and {@link ConveyorSubject}) over
 * your own Conveyor to run the suite against it. Redis failures surface as runtime exceptions.
 */
public interface ConveyorPort extends AutoCloseable {
    /** The spec's Add. */
    void add(JobSpec job, boolean deadParent);

    /** The oldest job of the queue with a lease, or empty. */
    Optional<Claimed> claim(String queue);

    /** @return false when the lease was no longer the caller's (fencing), true when the completion committed */
    boolean complete(Claimed claimed);

    /** @return false when fenced off; true when the failure (retry or final) committed */
    boolean fail(Claimed claimed, String reason);

    /** Moves due scheduled jobs to their queues. */
    int runScheduler();

    /** Requeues jobs whose lease expired. */
    int recoverExpired();

    /**
     * Where jobs are: place name -> uuids (duplicates kept). Place names: "queue:q", "scheduled", "children:p",
     * "onComplete:p", "running", "waiting" (ran, waits for children), "done", "failed".
     */
    Map<String, List<String>> places(Collection<String> queues, Collection<String> uuids);

    @Override
    void close();
}
