package dev.redsim.queue.conveyor;

/** What a {@link ConveyorWorker} runs for each job. */
@FunctionalInterface
public interface ConveyorHandler {
    /**
     * Returning completes the job (its children and successors are released as Conveyor defines); throwing fails
     * it: retried after the backoff while retries remain (ConveyorOptions), then final. Handlers should stop when
     * interrupted (a stop past its grace period interrupts them and hands their jobs back).
     */
    void run(ConveyorRun run) throws Exception;
}
