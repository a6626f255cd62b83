package dev.redsim.conformance;

import dev.redsim.conformance.differential.Call;
import dev.redsim.conformance.differential.DifferentialRunner;
import dev.redsim.conformance.differential.Family;
import dev.redsim.conformance.property.PropertyCheck;
import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.simulator.intercept.CallOutcome;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests the tester: a simulator with a planted bug (SET of the value "abc" is acknowledged but not done) must be
 * caught by the differential engine, shrunk to at most 3 commands, and reproduced from the reported seed.
 */
class PlantedDifferenceTest {
    @Test
    void plantedDifferenceIsFoundShrunkAndReplayed() {
        try (SimulatorTarget faulty = new SimulatorTarget()) {
            // the planted bug, through the simulator's public command interceptor: a lost write acknowledged with +OK
            faulty.simulator().intercept(call -> call.is("set") && call.argCount() >= 2
                    && call.argString(1).equals("abc") ? CallOutcome.ok() : CallOutcome.proceed());
            try (DifferentialRunner runner = new DifferentialRunner(SharedTargets.reference(), faulty)) {
                PropertyCheck<Call> check = new PropertyCheck<>(Family.STRINGS.histories(3, 5, 30),
                        history -> runner.run(history).isEmpty(), 2000);
                PropertyCheck.Result<Call> result = check.run(20261122L, 500);

                assertThat(result.passed()).as("the planted difference is found").isFalse();
                List<Call> shrunk = result.failure().shrunk();
                assertThat(shrunk.size()).as("shrunk history %s", shrunk).isLessThanOrEqualTo(3);
                assertThat(shrunk).anySatisfy(c -> assertThat(c.toCli()).startsWith("SET").contains("abc"));
                // the seed replays the same failing history, which still differs
                List<Call> replayed = check.replay(result.failure().caseSeed());
                assertThat(replayed).isEqualTo(result.failure().original());
                assertThat(runner.run(replayed)).isPresent();
            }
        }
    }
}
