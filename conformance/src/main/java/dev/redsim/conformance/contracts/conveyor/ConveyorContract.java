package dev.redsim.conformance.contracts.conveyor;

import dev.redsim.conformance.property.PropertyCheck;
import dev.redsim.conformance.target.RedisTarget;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Conveyor contract suite. Extend it with a target and an implementation; every test talks to the
 * implementation only through {@link ConveyorPort} and to Redis only through the target's address.
 * Sizes: -Dredsim.conveyor.histories (default 100), -Dredsim.seed to replay a reported run.
 */
public abstract class ConveyorContract {

    protected abstract RedisTarget target();

    protected abstract ConveyorSubject subject();

    private static int histories() {
        return Integer.getInteger("redsim.conveyor.histories", 100);
    }

    @Test
    void generatedHistoriesMatchTheModel() {
        HistoryRunner runner = new HistoryRunner(target(), subject());
        PropertyCheck<ConveyorOp> check = new PropertyCheck<>(
                dev.redsim.conformance.property.Gen.listOf(ConveyorOp.gen(), 5, 40), runner::holds, 300);
        long seed = PropertyCheck.runSeed();
        PropertyCheck.Result<ConveyorOp> result = check.run(seed, histories());
        String report = "";
        if (!result.passed()) {
            List<ConveyorOp> shrunk = result.failure().shrunk();
            runner.holds(shrunk);
            report = "run seed " + seed + ", case seed " + result.failure().caseSeed() + "\nshrunk history "
                    + shrunk + "\n" + runner.failure();
        }
        System.out.printf("conveyor contract on %s: %d histories, %d operations (seed %d)%n",
                target().name(), result.casesRun(), result.elementsRun(), seed);
        System.out.printf("  job-steps per place: %s%n", runner.coverage());
        assertThat(result.passed()).as(report).isTrue();
    }

    /** The histories take the backoff from the subject; this checks the promise itself: positive, never shrinking. */
    @Test
    void backoffIsPositiveAndNeverShrinks() {
        ConveyorSubject subject = subject();
        for (int retry = 1; retry < 40; retry++) {
            assertThat(subject.backoff(retry)).as("backoff(%d)", retry).isPositive()
                    .isLessThanOrEqualTo(subject.backoff(retry + 1));
        }
    }

    @Test
    void racingWorkersNeverShareAJob() throws Exception {
        int workers = 4;
        int families = Integer.getInteger("redsim.conveyor.families", 20);
        List<String> problems = new RacingWorkers(target(), subject()).run(workers, families);
        System.out.printf("conveyor contract on %s: %d racing workers, %d jobs%n", target().name(), workers,
                families * 6);
        assertThat(problems).isEmpty();
    }

    @Test
    void crashAfterEveryCommandLosesNothing() throws Exception {
        CrashInjection crashes = new CrashInjection(target(), subject());
        List<String> problems = crashes.run();
        System.out.printf("conveyor contract on %s: %d injected crashes%n", target().name(),
                crashes.crashesInjected());
        assertThat(problems).isEmpty();
    }
}
