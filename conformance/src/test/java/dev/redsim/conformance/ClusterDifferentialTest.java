package dev.redsim.conformance;

import dev.redsim.conformance.differential.ClusterDifferentialRunner;
import dev.redsim.conformance.differential.Family;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The differential gate on two clusters of 3 masters (a real one and the simulated one): each family's generated
 * histories (3 clients, interleaved) run through {@link ClusterDifferentialRunner}, which sends each client's calls to
 * the node it is on and follows MOVED like a cluster client, comparing every reply on the way: redirections, CROSSSLOT
 * refusals (the families' keys k1, k2, k3 and {k}4 live on all three nodes), SELECT and MOVE refused, and the
 * replies of the nodes serving the keys.
 *
 * <p>Budget: -Dredsim.differential.clusterHistories=N per family (default 100; the nightly profile runs more). Rerun
 * and replay as {@link DifferentialTest} says (-Dredsim.seed, -Dredsim.replay=FAMILY:caseSeed,
 * -Dredsim.differential.families).
 */
class ClusterDifferentialTest {
    @TestFactory
    List<DynamicTest> everyFamilyMatchesARealCluster() {
        int histories = Integer.getInteger("redsim.differential.clusterHistories", 100);
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
            tests.add(DynamicTest.dynamicTest(family.name(), () -> {
                try (ClusterDifferentialRunner runner = new ClusterDifferentialRunner(SharedTargets.referenceCluster(3),
                        SharedTargets.simulatedCluster(3))) {
                    DifferentialTest.check(family, histories, replay, runner, "cluster differential");
                    System.out.printf("cluster differential %-12s %6d MOVED followed%n", family,
                            runner.redirectionsFollowed());
                }
            }));
        }
        return tests;
    }
}
