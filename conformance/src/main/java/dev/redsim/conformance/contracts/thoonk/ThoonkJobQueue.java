package dev.redsim.conformance.contracts.thoonk;

import java.time.Duration;

/**
 * The operations of a thoonk job queue (one feed) that the contract suite drives. Implement it over your own
 * client to run {@link ThoonkJobContract} against your implementation. One instance is one client connection,
 * used by one thread at a time.
 */
public interface ThoonkJobQueue extends AutoCloseable {
    /** Normal priority: behind every waiting job. @return the new job's id */
    String put(String item);

    /** High priority: ahead of every waiting job. */
    String putHighPriority(String item);

    /** BRPOP and claim. @return the claim, or null when no job came within the timeout */
    JobClaim get(Duration timeout);

    /** Fenced by the claim: false when the job is not claimed, or claimed by someone else since. */
    boolean finish(JobClaim claim, String resultOrNull);

    boolean cancel(JobClaim claim);

    boolean stall(JobClaim claim);

    boolean retry(String id);

    boolean retract(String id);

    long failures(String id);

    /** One maintenance pass (the instance remembers what it saw, for the next pass). */
    MaintenanceOutcome maintain();

    @Override
    void close();
}
