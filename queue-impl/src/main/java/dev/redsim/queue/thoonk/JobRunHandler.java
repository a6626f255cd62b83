package dev.redsim.queue.thoonk;

/** What a {@link JobWorker} runs for each job. */
@FunctionalInterface
public interface JobRunHandler {
    /**
     * @return the result, published on job.finish (null: finish without a result)
     * @throws Exception to fail the run: the job is cancelled (back in line, a failure counted) or, at the
     *                   worker's failure limit, stalled. Handlers should stop when interrupted (a stop past its
     *                   grace period interrupts them and hands their jobs back).
     */
    String run(JobRun job) throws Exception;
}
