package dev.redsim.queue.connection;

import java.time.Duration;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A slot migration in the middle of a run: opened, then {@link #STEP_KEYS} keys moved at a time, each step after the
 * two masters refused some transition since the step before (ASK, TRYAGAIN, a script's probe; bounded), so the
 * migration and the work do interleave; then finished.
 */
final class SlotMigrationDisruption implements RaceDisruption {
    private static final int STEP_KEYS = 4;
    private static final int MAX_STEPS = 12;

    private final Supplier<SlotMove> opening;
    private SlotMove move;

    SlotMigrationDisruption(Supplier<SlotMove> opening) {
        this.opening = opening;
    }

    @Override
    public String name() {
        return "slot migration";
    }

    @Override
    public int run(Runnable started) {
        move = opening.get();
        started.run();
        int stepsAfterARefusal = 0;
        for (int step = 0; step < MAX_STEPS; step++) {
            long before = refusals();
            if (ServerPoll.until(() -> refusals() > before, Duration.ofSeconds(5))) {
                stepsAfterARefusal++;
            }
            if (move.migrateKeys(STEP_KEYS) == 0) {
                break;
            }
        }
        move.finish();
        return stepsAfterARefusal;
    }

    private long refusals() {
        return NodeReads.errorReplies(move.source()) + NodeReads.errorReplies(move.target());
    }

    @Override
    public String servingMaster() {
        return move.target();
    }

    @Override
    public void checkKeysPlaced(String tag) {
        assertThat(NodeReads.keysOn(move.source(), tag)).as("keys left on the old master").isEmpty();
    }
}
