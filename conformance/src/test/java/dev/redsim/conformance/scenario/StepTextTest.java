package dev.redsim.conformance.scenario;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A step's canonical text parses back to the same step (it is a scenario line), and formatting does not change it. */
class StepTextTest {
    @Test
    void canonicalTextParsesBackToTheSameStep() {
        String file = """
                ### s
                SET k v
                @c2   @sort   SMEMBERS s
                @resp3 @c3 @approx 5 TTL k
                @shape SRANDMEMBER s 2
                @ignore CLIENT ID
                @c2 @send BLPOP q 0
                @blocked 1
                @c2 @recv
                SET "a b" "tab\\there\\x00\\xff\\"q\\" \\\\" ''
                SET 'it\\'s' caf\u00e9
                """;
        List<Step> steps = ScenarioFile.parse("f.txt", file).get(0).steps();
        StringBuilder again = new StringBuilder("### s\n");
        for (Step step : steps) {
            again.append(StepText.of(step)).append('\n');
        }
        List<Step> reparsed = ScenarioFile.parse("f.txt", again.toString()).get(0).steps();
        assertThat(reparsed).hasSameSizeAs(steps);
        for (int i = 0; i < steps.size(); i++) {
            assertThat(StepText.of(reparsed.get(i))).isEqualTo(StepText.of(steps.get(i)));
            assertThat(reparsed.get(i).args()).isDeepEqualTo(steps.get(i).args());
            assertThat(reparsed.get(i).compare()).isEqualTo(steps.get(i).compare());
            assertThat(reparsed.get(i).client()).isEqualTo(steps.get(i).client());
            assertThat(reparsed.get(i).io()).isEqualTo(steps.get(i).io());
        }
        assertThat(StepText.of(steps.get(1))).isEqualTo("@c2 @sort SMEMBERS s");
        assertThat(StepText.of(steps.get(2))).isEqualTo("@c3 @resp3 @approx 5 TTL k");
        assertThat(StepText.of(steps.get(8))).isEqualTo("SET \"a b\" \"tab\\there\\x00\\xff\\\"q\\\" \\\\\" \"\"");
        assertThat(StepText.of(steps.get(9))).isEqualTo("SET \"it's\" \"caf\\xc3\\xa9\"");
        assertThat(new String(steps.get(9).args()[2], StandardCharsets.UTF_8)).isEqualTo("caf\u00e9");
    }
}
