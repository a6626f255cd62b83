package dev.redsim.simulator.net;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SelectorLoopTest {
    private final SelectorLoop loop = newLoop();
    private Thread loopThread;

    private static SelectorLoop newLoop() {
        try {
            return new SelectorLoop();
        } catch (IOException failed) {
            throw new IllegalStateException(failed);
        }
    }

    @AfterEach
    void stop() throws InterruptedException {
        loop.shutdown();
        if (loopThread != null) {
            assertThat(loop.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void tasksRunInOrderOnTheLoopThread() throws Exception {
        loopThread = loop.start("test-loop");
        List<Integer> order = new ArrayList<>(); // loop thread only
        AtomicInteger offLoop = new AtomicInteger();
        for (int i = 0; i < 5000; i++) {
            int n = i;
            loop.execute(() -> {
                if (Thread.currentThread() != loopThread || !loop.inLoop()) {
                    offLoop.incrementAndGet();
                }
                order.add(n);
            });
        }
        List<Integer> seen = OnLoop.call(loop, () -> new ArrayList<>(order));
        assertThat(seen).hasSize(5000);
        for (int i = 0; i < 5000; i++) {
            assertThat(seen.get(i)).isEqualTo(i);
        }
        assertThat(offLoop).hasValue(0);
        assertThat(loop.inLoop()).isFalse();
    }

    @Test
    void tasksFromManyThreadsAllRunEachThreadsInItsOrder() throws Exception {
        loopThread = loop.start("test-loop");
        int threads = 8;
        int perThread = 2000;
        int[] lastSeen = new int[threads]; // loop thread only
        AtomicInteger outOfOrder = new AtomicInteger();
        CountDownLatch all = new CountDownLatch(threads * perThread);
        List<Thread> producers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int producer = t;
            producers.add(new Thread(() -> {
                for (int i = 1; i <= perThread; i++) {
                    int n = i;
                    loop.execute(() -> {
                        if (lastSeen[producer] != n - 1) {
                            outOfOrder.incrementAndGet();
                        }
                        lastSeen[producer] = n;
                        all.countDown();
                    });
                }
            }));
        }
        producers.forEach(Thread::start);
        assertThat(all.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(outOfOrder).hasValue(0);
    }

    @Test
    void aTaskQueueingItselfDoesNotStarveTheOthers() throws Exception {
        loopThread = loop.start("test-loop");
        AtomicInteger runs = new AtomicInteger();
        Runnable again = new Runnable() {
            @Override
            public void run() {
                runs.incrementAndGet();
                try {
                    loop.execute(this);
                } catch (RejectedExecutionException shutDown) {
                    // the test is over
                }
            }
        };
        loop.execute(again);
        // a timer is served while the task keeps queueing itself
        CompletableFuture<Integer> timer = new CompletableFuture<>();
        loop.schedule(() -> timer.complete(runs.get()), 0, TimeUnit.MILLISECONDS);
        assertThat(timer.get(10, TimeUnit.SECONDS)).isNotNegative(); // it ran at all
    }

    @Test
    void refusesTasksAndTimersOnceShutDown() throws Exception {
        loopThread = loop.start("test-loop");
        loop.shutdown();
        loop.shutdown(); // idempotent
        assertThatThrownBy(() -> loop.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> loop.schedule(() -> { }, 1, TimeUnit.MILLISECONDS))
                .isInstanceOf(RejectedExecutionException.class);
        assertThat(loop.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(loop.isTerminated()).isTrue();
        loopThread.join(10_000);
        assertThat(loopThread.isAlive()).isFalse();
    }

    @Test
    void awaitTerminationIsFalseWhileTheLoopRuns() throws Exception {
        loopThread = loop.start("test-loop");
        assertThat(loop.awaitTermination(0, TimeUnit.MILLISECONDS)).isFalse();
        loop.shutdown();
        assertThat(loop.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void shutdownFromATaskEndsTheLoopAfterRunningTheTasksQueuedBefore() throws Exception {
        AtomicInteger after = new AtomicInteger();
        AtomicReference<Throwable> refused = new AtomicReference<>();
        loop.execute(() -> {
            loop.shutdown();
            try {
                loop.execute(() -> { });
            } catch (RejectedExecutionException expected) {
                refused.set(expected);
            }
        });
        for (int i = 0; i < 3 * SelectorLoop.MAX_TASKS_PER_TURN; i++) {
            loop.execute(after::incrementAndGet); // queued before the shutdown began: all still run
        }
        loopThread = new Thread(loop, "helper-becomes-loop"); // the in-process start's way: a thread calls run()
        loopThread.start();
        assertThat(loop.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(after).hasValue(3 * SelectorLoop.MAX_TASKS_PER_TURN);
        assertThat(refused.get()).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void aThrowingTaskOrTimerDoesNotKillTheLoop() throws Exception {
        loopThread = loop.start("test-loop");
        PrintStream err = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setErr(new PrintStream(printed, true));
        try {
            loop.execute(() -> {
                throw new IllegalStateException("task failure for the test");
            });
            loop.schedule(() -> {
                throw new IllegalStateException("timer failure for the test");
            }, 0, TimeUnit.MILLISECONDS);
            CompletableFuture<Boolean> alive = new CompletableFuture<>();
            loop.schedule(() -> loop.execute(() -> alive.complete(true)), 1, TimeUnit.MILLISECONDS);
            assertThat(alive.get(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            System.setErr(err);
        }
        assertThat(printed.toString()).contains("task failure for the test").contains("timer failure for the test");
    }

    @Test
    void aFixedRateTimerRunsRepeatedlyUntilCancelledFromTheLoop() throws Exception {
        loopThread = loop.start("test-loop");
        AtomicInteger runs = new AtomicInteger();
        AtomicReference<LoopTimer> timer = new AtomicReference<>();
        CountDownLatch fiveRuns = new CountDownLatch(5);
        CountDownLatch scheduled = new CountDownLatch(1);
        loop.execute(() -> {
            timer.set(loop.scheduleAtFixedRate(() -> {
                assertThat(loop.inLoop()).isTrue();
                if (runs.incrementAndGet() == 5) {
                    timer.get().cancel();
                }
                fiveRuns.countDown();
            }, 1, 1, TimeUnit.MILLISECONDS));
            scheduled.countDown();
        });
        assertThat(scheduled.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(fiveRuns.await(10, TimeUnit.SECONDS)).isTrue();
        // twenty periods later, the count has not moved
        CompletableFuture<Integer> later = new CompletableFuture<>();
        loop.schedule(() -> later.complete(runs.get()), 20, TimeUnit.MILLISECONDS);
        assertThat(later.get(10, TimeUnit.SECONDS)).isEqualTo(5);
        assertThat(timer.get().isCancelled()).isTrue();
    }

    @Test
    void aFixedRateTimerCancelledFromAnotherThreadStops() throws Exception {
        loopThread = loop.start("test-loop");
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch threeRuns = new CountDownLatch(3);
        LoopTimer timer = loop.scheduleAtFixedRate(() -> {
            runs.incrementAndGet();
            threeRuns.countDown();
        }, 0, 1, TimeUnit.MILLISECONDS);
        assertThat(threeRuns.await(10, TimeUnit.SECONDS)).isTrue();
        timer.cancel();
        int atCancel = OnLoop.call(loop, runs::get); // no run starts after cancel() returned
        CompletableFuture<Integer> later = new CompletableFuture<>();
        loop.schedule(() -> later.complete(runs.get()), 20, TimeUnit.MILLISECONDS);
        assertThat(later.get(10, TimeUnit.SECONDS)).isEqualTo(atCancel);
    }

    @Test
    void oneShotTimersRunOnceInOrderOfTheirDeadlines() throws Exception {
        loopThread = loop.start("test-loop");
        List<String> order = new ArrayList<>(); // loop thread only
        CountDownLatch both = new CountDownLatch(2);
        loop.schedule(() -> {
            order.add("later");
            both.countDown();
        }, 30, TimeUnit.MILLISECONDS);
        loop.schedule(() -> {
            order.add("sooner");
            both.countDown();
        }, 0, TimeUnit.MILLISECONDS);
        assertThat(both.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<List<String>> seen = new CompletableFuture<>();
        loop.schedule(() -> seen.complete(new ArrayList<>(order)), 40, TimeUnit.MILLISECONDS);
        assertThat(seen.get(10, TimeUnit.SECONDS)).containsExactly("sooner", "later");
    }
}
