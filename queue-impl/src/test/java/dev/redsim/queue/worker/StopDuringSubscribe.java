package dev.redsim.queue.worker;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scenario behind the once-flaky graceful stop, made deterministic for any runtime with a wake listener: the
 * runtime is stopped while its listener is held inside subscribe (see {@link GatedPool}); the gate opens once the
 * stop has sent the listener an UNSUBSCRIBE or has returned. Afterwards every connection the pool lends answers
 * PING with PONG (before the fix, one still held the unread SUBSCRIBE reply and the server's subscribe mode, and
 * the next job's completion failed on it) and the listener thread has ended.
 */
public final class StopDuringSubscribe {
    private StopDuringSubscribe() {
    }

    public static void check(GatedPool gated, Runnable stop, String listenerThread) throws InterruptedException {
        assertThat(gated.awaitHeld()).as("the listener reached the gate").isTrue();
        Thread stopper = new Thread(stop, "stopper");
        stopper.start();
        assertThat(within30s(() -> gated.unsubscribesSent() > 0 || !stopper.isAlive()))
            .as("the stop spoke to the listener or returned").isTrue();
        gated.open();
        stopper.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(stopper.isAlive()).as("stop returned").isFalse();
        assertThat(within30s(() -> gated.pool().getNumActive() == 0 && !alive(listenerThread)))
            .as("the listener ended and gave its connection up").isTrue();
        List<String> answers = gated.pingEveryIdleConnection();
        assertThat(answers).as("every connection the pool lends is clean").allMatch("PONG"::equals);
    }

    private static boolean alive(String threadName) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(threadName) && t.isAlive());
    }

    /** Spins until the condition holds (an event, not a time, is awaited; 30 s is only the bound). */
    private static boolean within30s(BooleanSupplier condition) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }
}
