package dev.redsim.simulator;

import dev.redsim.simulator.net.SelectorLoop;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A simulator's start hands its loop a task that schedules the crons (RedisSimulator's constructor); a close right
 * after the start stops the loop, which still runs the tasks queued before. Scheduling there must not throw: the full
 * simulator suite printed "RejectedExecutionException: the selector loop is shut down" from scheduleCrons once per
 * run (a simulator closed right after its start), where Netty's loop accepted the timers of a loop shutting down.
 */
class TimersOfAStoppingLoopTest {
    @Test
    void aTaskQueuedBeforeTheStopMayStillScheduleItsTimers() throws Exception {
        SelectorLoop loop = new SelectorLoop();
        OwnThreads threads = new OwnThreads(loop);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> ran = new AtomicReference<>(false);
        threads.execute(() -> { // as the start's task: queued before the stop, run by it
            ran.set(true);
            try {
                threads.scheduleAtFixedRate(() -> { }, 100, 100, TimeUnit.MILLISECONDS);
            } catch (RuntimeException e) {
                thrown.set(e);
            }
        });
        loop.shutdown();
        loop.run(); // this thread is the loop: it ends at once, running the queued task on its way out

        assertThat(ran.get()).isTrue();
        assertThat(thrown.get()).as("what scheduling on the stopping loop threw").isNull();
    }
}
