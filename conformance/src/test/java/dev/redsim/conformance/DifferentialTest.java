package dev.redsim.conformance;

import dev.redsim.conformance.differential.Call;
import dev.redsim.conformance.differential.Difference;
import dev.redsim.conformance.differential.DifferentialRunner;
import dev.redsim.conformance.differential.Family;
import dev.redsim.conformance.differential.HistoryRunner;
import dev.redsim.conformance.property.PropertyCheck;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.fail;

/**
 * The differential gate: for each command family, generated histories (3 clients, interleaved) run on a real
 * redis-server and on the simulator, and every reply must match. A difference is shrunk to a minimal history and
 * reported as redis-cli input with the seed that replays it.
 *
 * <p>Budget: -Dredsim.differential.histories=N per family (default 400; the nightly profile runs many more).
 * Rerun a run: -Dredsim.seed=S. Replay one case: -Dredsim.replay=FAMILY:caseSeed. Only some families (a long
 * local run of new ones): -Dredsim.differential.families=BITFIELD,HLL.
 */
@SuppressWarnings("unchecked")
class DifferentialTest {
    private static final int CLIENTS = 3;

    @TestFactory
    List<DynamicTest> everyFamilyMatchesRealRedis() {
        int histories = Integer.getInteger("redsim.differential.histories", 400);
        String replay = System.getProperty("redsim.replay", "");
        List<String> only = List.of(System.getProperty("redsim.differential.families", "").toUpperCase().split(","));
        List<DynamicTest> tests = new ArrayList<>();
        for (Family family : Family.values()) {
            if (!replay.isBlank() && !replay.startsWith(family.name() + ":")) {
                continue;
            }
            if (!only.equals(List.of("")) && !only.contains(family.name())) {
                continue;
            }
            tests.add(DynamicTest.dynamicTest(family.name(), () -> check(family, histories, replay)));
        }
        return tests;
    }

    private static void check(Family family, int histories, String replay) {
        try (DifferentialRunner runner = new DifferentialRunner(SharedTargets.reference(), SharedTargets.simulator())) {
            check(family, histories, replay, runner, "differential");
        }
    }

    /**
     * Runs {@code histories} generated histories of {@code family} with {@code runner} (or replays one case), failing
     * with the shrunk history of the first difference; {@code label} starts the summary line.
     */
    static void check(Family family, int histories, String replay, HistoryRunner runner, String label) {
        // the first difference seen, kept in case a shrunk history does not show it again (a flaky difference)
        Difference[] first = new Difference[1];
        List<Call>[] firstHistory = new List[1];
        PropertyCheck<Call> check = new PropertyCheck<>(family.histories(CLIENTS, 5, 30), history -> {
            Optional<Difference> d = runner.run(history);
            if (d.isPresent() && first[0] == null) {
                first[0] = d.get();
                firstHistory[0] = history;
            }
            return d.isEmpty();
        }, 2000);
        if (!replay.isBlank()) {
            long caseSeed = Long.parseLong(replay.substring(replay.indexOf(':') + 1));
            List<Call> history = check.replay(caseSeed);
            Optional<Difference> d = runner.run(history);
            d.ifPresent(diff -> fail(Difference.report(history, diff, caseSeed)));
            return;
        }
        long seed = PropertyCheck.runSeed();
        PropertyCheck.Result<Call> result = check.run(seed, histories);
        System.out.printf("%s %-12s %5d histories, %6d commands compared, %s (seed %d)%n", label, family,
                result.casesRun(), runner.commandsCompared(), result.passed() ? "no difference" : "DIFFERENCE", seed);
        if (!result.passed()) {
            PropertyCheck.Failure<Call> failure = result.failure();
            Optional<Difference> again = runner.run(failure.shrunk());
            if (again.isEmpty()) {
                fail("a difference that does not reproduce (timing-dependent?): "
                        + Difference.report(firstHistory[0], first[0], failure.caseSeed()));
            }
            Difference d = again.get();
            fail("shrunk from " + failure.original().size() + " to " + failure.shrunk().size() + " commands in "
                    + failure.shrinkAttempts() + " attempts; "
                    + Difference.report(failure.shrunk(), d, failure.caseSeed()).replace("-Dredsim.replay=",
                    "-Dredsim.replay=" + family.name() + ":"));
        }
    }
}
