package dev.redsim.conformance.contracts.rescue;

import dev.redsim.conformance.property.Gen;
import dev.redsim.conformance.property.PropertyCheck;
import dev.redsim.conformance.target.RedisTarget;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rescue contract suite. Extend it with a target and an implementation; tests talk to the implementation only
 * through {@link RescuePort} and to Redis only through the target's address. Time is a manual clock: no sleeps.
 * Sizes: -Dredsim.rescue.histories (default 200), -Dredsim.seed to replay a reported run.
 */
public abstract class RescueContract {

    protected abstract RedisTarget target();

    protected abstract RescueSubject subject();

    private static int histories() {
        return Integer.getInteger("redsim.rescue.histories", 200);
    }

    @Test
    void generatedHistoriesMatchTheModel() {
        check("all kinds of task", RescueOp.gen(), histories());
    }

    @Test
    void generatedTemplateHistoriesMatchTheModel() {
        check("templates and dependants", RescueOp.templateHeavyGen(), histories() / 2);
    }

    private void check(String kind, Gen<RescueOp> ops, int histories) {
        HistoryRunner runner = new HistoryRunner(target(), subject());
        PropertyCheck<RescueOp> check = new PropertyCheck<>(Gen.listOf(ops, 5, 50), runner::holds, 300);
        long seed = PropertyCheck.runSeed();
        PropertyCheck.Result<RescueOp> result = check.run(seed, histories);
        String report = "";
        if (!result.passed()) {
            List<RescueOp> shrunk = result.failure().shrunk();
            runner.holds(shrunk);
            report = "run seed " + seed + ", case seed " + result.failure().caseSeed() + "\nshrunk history "
                    + shrunk + "\n" + runner.failure();
        }
        System.out.printf("rescue contract on %s, %s: %d sequences, %d steps (seed %d)%n",
                target().name(), kind, result.casesRun(), result.elementsRun(), seed);
        System.out.printf("  rules exercised: %s%n", runner.coverage());
        assertThat(result.passed()).as(report).isTrue();
    }

    @Test
    void ownershipAndExpiry() {
        new Scenarios(target(), subject()).ownershipAndExpiry();
    }

    @Test
    void cronTicksFollowTheReadmeExample() {
        new Scenarios(target(), subject()).cronTicks();
    }

    @Test
    void gateFiresOncePerCycle() {
        new Scenarios(target(), subject()).gateFiresOncePerCycle();
    }

    @Test
    void rootSuppressesCreateAndSearch() {
        new Scenarios(target(), subject()).rootSuppression();
    }

    @Test
    void nodeDeliveryModes() {
        new Scenarios(target(), subject()).nodeDelivery();
    }

    @Test
    void syncIsCarriedToTheNextTick() {
        new Scenarios(target(), subject()).syncCarriedToNextTick();
    }

    @Test
    void racingTickersEmitOncePerTick() throws Exception {
        int threads = 4;
        int templates = 10;
        int rounds = 24;
        List<String> problems = new RacingEngines(target(), subject()).tickers(threads, templates, rounds);
        System.out.printf("rescue contract on %s: %d racing tickers, %d templates, %d ticks%n", target().name(),
                threads, templates, rounds);
        assertThat(problems).isEmpty();
    }

    @Test
    void racingWorkersFireEachGateOncePerCycle() throws Exception {
        int threads = 4;
        int gates = 8;
        int cycles = 5;
        List<String> problems = new RacingEngines(target(), subject()).gateWorkers(threads, gates, cycles);
        System.out.printf("rescue contract on %s: %d racing workers, %d gates x %d cycles (%d tasks)%n",
                target().name(), threads, gates, cycles, gates * cycles * 4);
        assertThat(problems).isEmpty();
    }

    @Test
    void crashAfterEveryCommandIsAllOrNothing() throws Exception {
        CrashInjection crashes = new CrashInjection(target(), subject());
        List<CrashInjection.Scenario> scenarios = CrashScenarios.all(subject());
        List<String> problems = crashes.run(scenarios);
        System.out.printf("rescue contract on %s: %d operations, %d injected crashes%n", target().name(),
                scenarios.size(), crashes.crashesInjected());
        assertThat(problems).isEmpty();
    }

    @Test
    void racingWorkersReceiveEachBroadcastOnce() throws Exception {
        List<String> problems = new RacingEngines(target(), subject()).broadcast(4, 10);
        assertThat(problems).isEmpty();
    }
}
