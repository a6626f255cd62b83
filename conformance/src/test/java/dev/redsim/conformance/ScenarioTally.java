package dev.redsim.conformance;

import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts what the scenario files checked, for the one line a run prints: nothing may be skipped silently. */
final class ScenarioTally {
    private final Set<String> scenarios = ConcurrentHashMap.newKeySet();
    private final AtomicInteger runs = new AtomicInteger();
    private final AtomicInteger steps = new AtomicInteger();
    private final Set<String> versions = ConcurrentHashMap.newKeySet();

    void add(String file, String scenario, int comparedSteps, String redisVersion) {
        scenarios.add(file + "\n" + scenario);
        runs.incrementAndGet();
        steps.addAndGet(comparedSteps);
        versions.add(redisVersion);
    }

    /** E.g. "623 scenarios (1246 runs, RESP2 and RESP3) / 9876 steps checked against recordings of ...". */
    String summary(String how) {
        return String.format("%d scenarios (%d runs, RESP2 and RESP3) / %d steps %s %s", scenarios.size(), runs.get(),
                steps.get(), how, versions.isEmpty() ? "(none)" : String.join(", ", new TreeSet<>(versions)));
    }

    boolean isEmpty() {
        return runs.get() == 0;
    }
}
