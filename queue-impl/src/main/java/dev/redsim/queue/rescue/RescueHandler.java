package dev.redsim.queue.rescue;

/** What a {@link RescueWorker} runs for each task it is given. */
@FunctionalInterface
public interface RescueHandler {
    /**
     * @return the copy to hand back on Delete (e.g. with new Sync labels for the next tick), or null to delete the
     *         task as delivered. Broadcast tasks are not deleted (they end by retention); their return is ignored.
     * @throws Exception to fail the run: the task is not deleted and its ownership is left to expire, after which
     *                   it is delivered again (the README's retry; it has no backoff of its own)
     */
    Task run(RescueRun run) throws Exception;
}
