package dev.redsim.conformance.recording;

import dev.redsim.conformance.scenario.Scenario;
import dev.redsim.conformance.scenario.ScenarioRunner;
import dev.redsim.conformance.scenario.StepReply;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether a recording still holds what the live reference answers: the same steps, and replies equal under each
 * step's declared normalisation (the one the simulator is compared with, so a random choice never counts as stale).
 */
public final class StaleCheck {
    private StaleCheck() {
    }

    /** The differences between a recording and the reference replies of a live run of the same scenario. */
    public static List<String> differences(Recording recording, Scenario scenario, List<StepReply> live) {
        Optional<String> mismatch = RecordedReplies.mismatch(recording, scenario);
        if (mismatch.isPresent()) {
            return List.of(mismatch.get());
        }
        List<RecordedStep> recorded = recording.scenarios().get(scenario.name());
        List<String> differences = new ArrayList<>();
        for (int i = 0; i < Math.min(live.size(), recorded.size()); i++) {
            StepReply now = live.get(i);
            RecordedStep then = recorded.get(i);
            if (now.reply() != null && !ScenarioRunner.same(now.step(), then.reply(), now.reply())) {
                differences.add(String.format("%s:%d (RESP%d) %s%n    recorded (Redis %s): %s%n    live reference:      %s",
                        scenario.file(), now.step().line(), recording.protocol(), now.step().commandText(),
                        recording.redisVersion(), then.reply(), now.reply()));
            }
        }
        return differences;
    }
}
