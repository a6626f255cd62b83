package dev.redsim.conformance;

import dev.redsim.conformance.scenario.Scenario;
import dev.redsim.conformance.scenario.ScenarioFile;
import dev.redsim.conformance.scenario.ScenarioRunner;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Every scenario under src/test/resources/scenarios runs on a real redis-server and on the simulator, under
 * RESP2 and RESP3, and every reply must be byte-for-byte equal (with the declared normalisations).
 */
class CommandScenariosTest {
    @TestFactory
    List<DynamicNode> scenarios() throws URISyntaxException {
        URL dir = getClass().getClassLoader().getResource("scenarios");
        // -Dredsim.scenarios=lists.txt,hashes.txt runs only those files (for quick iterations on one family).
        String only = System.getProperty("redsim.scenarios", "");
        List<String> selected = only.isBlank() ? List.of() : Arrays.asList(only.split(","));
        File[] files = new File(dir.toURI()).listFiles((d, name) -> name.endsWith(".txt")
                && (selected.isEmpty() || selected.contains(name)));
        assertThat(files).isNotEmpty();
        Arrays.sort(files);
        List<DynamicNode> nodes = new ArrayList<>();
        for (File file : files) {
            List<DynamicNode> tests = new ArrayList<>();
            for (Scenario scenario : ScenarioFile.load("scenarios/" + file.getName())) {
                for (int protocol : new int[] {2, 3}) {
                    tests.add(DynamicTest.dynamicTest(scenario.name() + " [RESP" + protocol + "]", () -> run(scenario, protocol)));
                }
            }
            nodes.add(DynamicContainer.dynamicContainer(file.getName(), tests));
        }
        return nodes;
    }

    private static void run(Scenario scenario, int protocol) {
        ScenarioRunner runner = new ScenarioRunner(SharedTargets.reference(), SharedTargets.simulator());
        ScenarioRunner.Result result = runner.run(scenario, protocol);
        if (!result.passed()) {
            fail(result.differences().size() + " of " + result.compared() + " replies differ in '" + scenario
                    + "':\n" + String.join("\n", result.differences()));
        }
    }
}
