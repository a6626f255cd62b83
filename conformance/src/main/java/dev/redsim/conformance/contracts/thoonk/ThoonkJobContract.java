package dev.redsim.conformance.contracts.thoonk;

import dev.redsim.conformance.property.PropertyCheck;
import dev.redsim.conformance.property.Gen;
import dev.redsim.conformance.target.RedisTarget;

import java.util.List;

/**
 * The thoonk job contract as checks, abstract over the target and the implementation. Each method throws an
 * AssertionError naming what broke (for generated histories: the seed that replays it and the shrunk history).
 *
 * <pre>{@code
 * ThoonkJobContract contract = new ThoonkJobContract(target, myFactory);
 * contract.modelBased(PropertyCheck.runSeed(), 60);
 * contract.crashInjection();
 * }</pre>
 */
public final class ThoonkJobContract {
    /** Short timeout, few cancels: generated histories reach both maintenance outcomes. */
    public static final JobQueueSettings SETTINGS = new JobQueueSettings(1_000, 2);

    private final RedisTarget target;
    private final ThoonkJobQueueFactory factory;

    /** What a model-based run covered. */
    public record ModelReport(long seed, int histories, long steps) {
    }

    public ThoonkJobContract(RedisTarget target, ThoonkJobQueueFactory factory) {
        this.target = target;
        this.factory = factory;
    }

    /**
     * Generated histories of put/get/finish/cancel/stall/retry/retract/maintenance and clock moves, checked
     * step by step against {@link JobModel} on the real keys: conservation, FIFO with high priority first,
     * fencing of stale claims, timeouts and the cancel limit, and one job.finish event per committed finish.
     */
    public ModelReport modelBased(long seed, int histories) {
        ModelRun run = new ModelRun(target, factory, SETTINGS);
        Gen<List<JobOp>> gen = Gen.listOf(JobOp.gen(SETTINGS.claimTimeoutMillis()), 1, 40);
        PropertyCheck<JobOp> check = new PropertyCheck<>(gen, run::holds, 300);
        PropertyCheck.Result<JobOp> result = check.run(seed, histories);
        if (!result.passed()) {
            PropertyCheck.Failure<JobOp> failure = result.failure();
            run.holds(failure.shrunk());
            throw new AssertionError("thoonk job model check failed on " + target.name() + " (run seed " + seed
                + ", case seed " + failure.caseSeed() + ")\n  shrunk history: " + failure.shrunk() + "\n  "
                + run.failure());
        }
        return new ModelReport(seed, result.casesRun(), result.elementsRun());
    }

    /** @return the number of crashes injected (every operation, every k) */
    public int crashInjection() {
        return new CrashInjection(target, factory, SETTINGS).runAll();
    }

    public void racingWorkers(int workers, int jobs) throws Exception {
        new RacingWorkers(target, factory, SETTINGS).run(workers, jobs);
    }

    public void staleOwnerIsFenced() {
        new Scenarios(target, factory, SETTINGS).staleOwnerIsFenced();
    }

    public void onePassDuringAClaimRequeuesNothing() {
        new Scenarios(target, factory, SETTINGS).onePassDuringAClaimRequeuesNothing();
    }

    public void twoPassesDuringAClaimRequeueNothing() {
        new Scenarios(target, factory, SETTINGS).twoPassesDuringAClaimRequeueNothing();
    }

    public void aLostPopIsRequeuedAfterTheClaimTimeout() {
        new Scenarios(target, factory, SETTINGS).aLostPopIsRequeuedAfterTheClaimTimeout();
    }

    public void subMillisecondGetDoesNotBlock() {
        new Scenarios(target, factory, SETTINGS).subMillisecondGetDoesNotBlock();
    }

    public void emptyGetTimesOut() {
        new Scenarios(target, factory, SETTINGS).emptyGetTimesOut();
    }
}
