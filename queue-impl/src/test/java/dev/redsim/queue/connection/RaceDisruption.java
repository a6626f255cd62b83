package dev.redsim.queue.connection;

/**
 * What happens to a queue's hash slot in the middle of a racing-workers run ({@link QueueRaces}): its migration to
 * another master ({@link SlotMove}, step by step) or a failover of the master serving it to its replica. The run
 * calls {@link #run} once a fifth of the jobs ran, while the workers keep going.
 */
interface RaceDisruption {
    /** "slot migration", "failover": for the run's report. */
    String name();

    /**
     * Disrupts the slot while the work goes on. Calls {@code started} once, when producers holding back the second
     * half of their jobs may add them (the migration: when it opens; a failover: when it is over, so work reaches the
     * new master). Returns how many of its steps met a transition the cluster refused (to prove the run met it).
     */
    int run(Runnable started) throws InterruptedException;

    /** host:port of the master serving the slot once the disruption is over. */
    String servingMaster();

    /**
     * Checks where the queue's keys are afterwards: a migration leaves none on the former master; a failover leaves
     * the former master as a replica holding the same keys as the new master.
     */
    void checkKeysPlaced(String tag);
}
