package dev.redsim.queue.rescue;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What Create accepts (docs/contracts/rescue.md, decisions 2 and 3) and how labels match (decision 15). */
class RescueTaskRulesTest {
    private static final Instant NOW = Instant.parse("2023-09-28T14:23:24.161982Z");
    private static final Task X = Task.withMeta(Map.of("x.api.io/object", "1234"));

    @Test
    void coreIsManagedAndCronGetsItsTicks() {
        Task prepared = TaskRules.prepare(X.withLabel(Task.Section.CORE, Labels.WORKER, "forged")
                .with(Task.Section.CRON, Map.of(Labels.EVERY, "6 hours")), NOW);
        assertThat(prepared.core()).isEmpty();
        assertThat(prepared.cron()).containsEntry(Labels.TICK_PREVIOUS, "2023-09-28T12:00:00.000000Z")
                .containsEntry(Labels.TICK_NEXT, "2023-09-28T18:00:00.000000Z");
        assertThat(prepared.isTemplate()).isTrue();
    }

    @Test
    void refusesWhatTheReadmeRulesOut() {
        refused(Task.empty());
        refused(X.with(Task.Section.CRON, Map.of(Labels.EVERY, "hour"))
                .with(Task.Section.GATE, Map.of("y.api.io/leaf-0", "waiting")));
        refused(X.with(Task.Section.CRON, Map.of(Labels.EVERY, "hour", "time.rescue.io/other", "x")));
        refused(X.with(Task.Section.CRON, Map.of("time.rescue.io/other", "x")));
        refused(X.with(Task.Section.GATE, Map.of("y.api.io/leaf-0", "waiting", "y.api.io/leaf-1", "trigger")));
        refused(X.with(Task.Section.GATE, Map.of("y.api.io/leaf-0", "deleted")));
        refused(X.with(Task.Section.GATE, Map.of("*", "waiting")));
        refused(X.with(Task.Section.NODE, Map.of(Labels.METHOD, "some")));
        refused(X.with(Task.Section.NODE, Map.of(Labels.METHOD, "uni")));
        refused(X.with(Task.Section.NODE, Map.of(Labels.METHOD, "all", Labels.WORKER, "w1")));
    }

    @Test
    void gateKindsAreTemplatesOrDependants() {
        assertThat(X.with(Task.Section.GATE, Map.of("k", "waiting")).isTemplate()).isTrue();
        assertThat(X.with(Task.Section.GATE, Map.of("k", "trigger")).isTemplate()).isFalse();
    }

    @Test
    void wildcardMatching() {
        Map<String, String> labels = Map.of("a", "1", "b", "2");
        assertThat(Labels.matches(Map.of("a", "1"), labels)).isTrue();
        assertThat(Labels.matches(Map.of("a", "*"), labels)).isTrue();
        assertThat(Labels.matches(Map.of("c", "*"), labels)).isFalse();
        assertThat(Labels.matches(Map.of("*", "2"), labels)).isTrue();
        assertThat(Labels.matches(Map.of("*", "3"), labels)).isFalse();
        assertThat(Labels.matches(Map.of("*", "*"), labels)).isTrue();
        assertThat(Labels.matches(Map.of("*", "*"), Map.of())).isFalse();
        assertThat(Labels.matches(Map.of(), Map.of())).isTrue();
    }

    private static void refused(Task task) {
        assertThatThrownBy(() -> TaskRules.prepare(task, NOW)).isInstanceOf(InvalidTaskException.class);
    }
}
