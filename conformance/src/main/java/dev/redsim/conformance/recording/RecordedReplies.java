package dev.redsim.conformance.recording;

import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.scenario.ReplySource;
import dev.redsim.conformance.scenario.Scenario;
import dev.redsim.conformance.scenario.Step;
import dev.redsim.conformance.scenario.StepText;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A recording as the reference side of a scenario run: it sends nothing and answers each step with the reply
 * recorded for it. Made only for a recording whose steps are exactly the scenario's ({@link #mismatch}), so a
 * replay never compares a reply with the recording of another command.
 */
public final class RecordedReplies implements ReplySource {
    private final String name;
    private final Map<Step, RespValue> replies = new IdentityHashMap<>();

    private RecordedReplies(String name, List<Step> steps, List<RecordedStep> recorded) {
        this.name = name;
        for (int i = 0; i < steps.size(); i++) {
            replies.put(steps.get(i), recorded.get(i).reply());
        }
    }

    /** The replay side for one run, or why the recording cannot stand for the scenario. */
    public static RecordedReplies of(Recording recording, Scenario scenario) {
        Optional<String> mismatch = mismatch(recording, scenario);
        if (mismatch.isPresent()) {
            throw new IllegalStateException(mismatch.get());
        }
        return new RecordedReplies("recording", steps(scenario, recording.protocol()),
                recording.scenarios().get(scenario.name()));
    }

    /**
     * Why the recording does not hold the scenario's steps as the scenario file has them now, if it does not:
     * the scenario is missing, or a step was added, removed or changed since the recording was made.
     */
    public static Optional<String> mismatch(Recording recording, Scenario scenario) {
        List<RecordedStep> recorded = recording.scenarios().get(scenario.name());
        if (recorded == null) {
            return Optional.of("'" + scenario.name() + "' is not in " + recording.fileName());
        }
        List<Step> steps = steps(scenario, recording.protocol());
        for (int i = 0; i < Math.max(steps.size(), recorded.size()); i++) {
            String want = i < steps.size() ? StepText.of(steps.get(i)) : "(no step)";
            String have = i < recorded.size() ? recorded.get(i).text() : "(no step)";
            if (!want.equals(have)) {
                String line = i < steps.size() ? Integer.toString(steps.get(i).line()) : "end";
                return Optional.of(String.format("'%s' in %s differs from the scenario file at step %d (line %s):"
                        + "%n    scenario file: %s%n    recording:     %s", scenario.name(), recording.fileName(), i + 1,
                        line, want, have));
            }
            boolean replied = steps.get(i).compare() != Step.Compare.IGNORE && (steps.get(i).io() == Step.Io.CALL
                    || steps.get(i).io() == Step.Io.RECEIVE);
            if (replied != (recorded.get(i).reply() != null)) {
                return Optional.of(String.format("'%s' in %s: step %d (line %d) %s %s", scenario.name(),
                        recording.fileName(), i + 1, steps.get(i).line(), want,
                        replied ? "has no recorded reply" : "has a recorded reply but is not compared"));
            }
        }
        return Optional.empty();
    }

    /** The steps that run under {@code protocol}, as the runner walks them. */
    static List<Step> steps(Scenario scenario, int protocol) {
        return scenario.steps().stream().filter(s -> s.protocol() == 0 || s.protocol() == protocol).toList();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void send(Step step) {
        // the recording's server got the command when the recording was made
    }

    @Override
    public RespValue receive(Step step) {
        if (!replies.containsKey(step)) {
            throw new IllegalArgumentException("not a step of the recorded scenario: " + step.commandText());
        }
        return replies.get(step);
    }

    @Override
    public boolean awaitBlocked(Step step, long clients) {
        return true; // the recording's replies were made after the server had reached the count
    }

    @Override
    public void close() {
    }
}
