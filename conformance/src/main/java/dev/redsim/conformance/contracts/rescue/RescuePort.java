package dev.redsim.conformance.contracts.rescue;

import java.util.List;
import java.util.Optional;

/**
 * One worker's engine on one connection, as the suite drives it. Implement this (and {@link RescueSubject}) over
 * your own rescue engine to run the suite against it. Redis failures surface as runtime exceptions.
 */
public interface RescuePort extends AutoCloseable {
    /** This engine's worker id. */
    String worker();

    /** Engine.Create: the stored task (object id, ticks), or empty when its Root suppressed it. */
    Optional<RescueTask> create(RescueTask task);

    /** Engine.Delete with the caller's copy: false when refused (not the current owner, template without bypass). */
    boolean delete(RescueTask task);

    /** Lease extension: the renewed copy, or empty when refused (same rule as delete). */
    Optional<RescueTask> extend(RescueTask task);

    /** Engine.Exists. */
    boolean exists(RescueTask query);

    /** Engine.Expire: revokes expired ownership, drops addressed tasks past retention. */
    int expire();

    /** Engine.Ticker: the number of tasks emitted. */
    int ticker();

    /** Engine.Search: a task for this worker, or empty. */
    Optional<RescueTask> search();

    /** Every stored task and template, oldest (smallest object id) first: what the model is compared with. */
    List<RescueTask> list();

    @Override
    void close();
}
