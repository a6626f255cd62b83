package dev.redsim.simulator.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Arrays;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One thread's event loop on one JDK selector: the sockets registered with it (listeners and connections), timers,
 * and tasks other threads hand it. Built on java.nio only, so an in-process simulator's first start loads a few
 * classes of its own instead of Netty's several hundred (issue 20).
 *
 * <p>Each turn: select (blocking until the next timer is due, or not at all when tasks wait), handle the ready keys
 * (a connection reads once per turn, as Redis's ae does, so one client sending a huge value cannot starve the
 * others), run the due timers, then the queued tasks (at most {@link #MAX_TASKS_PER_TURN}, so a task that queues
 * itself cannot starve the sockets). A task or timer that throws has its stack trace printed; the loop goes on.
 *
 * <p>The thread that calls {@link #run()} becomes the loop (the in-process start's helper thread does);
 * {@link #start(String)} makes a daemon thread for it.
 */
public final class SelectorLoop implements Executor, Runnable {
    /** The loop's direct buffer, through which every read and write of its sockets goes. */
    static final int BUFFER_SIZE = 64 * 1024;
    static final int MAX_TASKS_PER_TURN = 1024;
    /** Delays are capped so that a deadline (now + delay) cannot overflow: about 146 years. */
    private static final long MAX_DELAY_NANOS = Long.MAX_VALUE >> 1;

    private static final int RUNNING = 0;
    private static final int SHUTTING_DOWN = 1;
    private static final int TERMINATED = 2;

    private final Selector selector;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_SIZE);
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    /** Timers scheduled from other threads, moved into {@link #timers} by the loop. */
    private final ConcurrentLinkedQueue<LoopTimer> newTimers = new ConcurrentLinkedQueue<>();
    private final PriorityQueue<LoopTimer> timers = new PriorityQueue<>();
    /**
     * True while the loop is about to block in select or blocks there: the first thread to hand it work then wakes
     * it (once; a wakeup is a system call, so the others need not).
     */
    private final AtomicBoolean selecting = new AtomicBoolean();
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicInteger state = new AtomicInteger(RUNNING);
    private final CountDownLatch terminated = new CountDownLatch(1);
    private volatile Thread thread;
    /** The keys each select finds ready, gathered by the select itself (no selected-key set). */
    private final ReadyKeys ready = new ReadyKeys();
    private long timerSequence;

    public SelectorLoop() throws IOException {
        this.selector = Selector.open();
    }

    /**
     * Runs {@code task} on the loop thread after the tasks handed in before it. Any thread.
     *
     * @throws RejectedExecutionException once {@link #shutdown()} began
     */
    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (state.get() != RUNNING) {
            throw rejected();
        }
        tasks.add(task);
        // a shutdown that began meanwhile may have run its last tasks already: a task it did not take is refused
        if (state.get() != RUNNING && tasks.remove(task)) {
            throw rejected();
        }
        wakeUp();
    }

    /** Runs {@code task} once on the loop thread after {@code delay}. Any thread. */
    public LoopTimer schedule(Runnable task, long delay, TimeUnit unit) {
        return addTimer(task, delay, 0, unit);
    }

    /**
     * Runs {@code task} on the loop thread after {@code initialDelay}, then every {@code period} from then on, like
     * ScheduledExecutorService (no drift), except that runs missed while the loop was busy are skipped rather than
     * made up in a burst. Any thread.
     */
    public LoopTimer scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit) {
        if (period <= 0) {
            throw new IllegalArgumentException("period must be positive: " + period);
        }
        return addTimer(task, initialDelay, period, unit);
    }

    /** Whether the calling thread is the loop's. */
    public boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /** Starts a daemon thread that runs the loop. */
    public Thread start(String threadName) {
        Thread loopThread = new Thread(this, threadName);
        loopThread.setDaemon(true);
        loopThread.start();
        return loopThread;
    }

    /** Runs the loop on the calling thread until {@link #shutdown()}. Once per loop. */
    @Override
    public void run() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("the loop runs already");
        }
        thread = Thread.currentThread();
        try {
            while (state.get() == RUNNING) {
                turn();
            }
        } catch (IOException | RuntimeException | Error broken) {
            // the selector itself failed: nothing can be served any more, so the loop shuts down
            broken.printStackTrace();
            state.compareAndSet(RUNNING, SHUTTING_DOWN);
        } finally {
            finish();
        }
    }

    /**
     * Begins the shutdown: no more tasks are taken; the loop closes every registered channel (each connection's driver
     * hears closed(), on the loop thread), runs the tasks queued before, closes its selector, and its thread returns.
     * Any thread, the loop's too (it then finishes its turn first); calling it again does nothing.
     */
    public void shutdown() {
        if (state.compareAndSet(RUNNING, SHUTTING_DOWN) && !inLoop()) {
            selector.wakeup();
        }
    }

    public boolean isShutdown() {
        return state.get() != RUNNING;
    }

    public boolean isTerminated() {
        return state.get() == TERMINATED;
    }

    /**
     * Waits until the loop has ended after {@link #shutdown()}, at most {@code timeout}; returns whether it ended. On
     * the loop thread it cannot end while waiting, so it answers at once. A loop that never ran (no thread called
     * {@link #run()}) does not end: this then waits the whole timeout and answers false.
     */
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        if (inLoop()) {
            return isTerminated();
        }
        return terminated.await(timeout, unit);
    }

    /** Registers {@code channel} with the loop's selector. Loop thread. */
    SelectionKey register(SelectableChannel channel, int ops, LoopChannel attachment) throws IOException {
        return channel.register(selector, ops, attachment);
    }

    /** The loop's direct buffer, for one read or write at a time. Loop thread. */
    ByteBuffer buffer() {
        return buffer;
    }

    /**
     * Makes the selector drop its cancelled keys now, which is when the JDK really closes a closed channel that was
     * registered (until then a closed listener still completes connections). A selection that does not block does it;
     * it hands the ready keys to an action that ignores them, so the keys the loop's own select gathered (it may be
     * handling them) are left as they are, and those keys are found again by the next select (readiness is
     * level-triggered). Loop thread.
     */
    void dropCancelledKeys() throws IOException {
        if (selector.isOpen()) {
            selector.selectNow(IgnoreKeys.INSTANCE);
        }
    }

    private void turn() throws IOException {
        selecting.set(true);
        // The selects that take an action hand each ready key to it: the JDK's selected-key set (a HashSet filled,
        // iterated and cleared every turn) was ~15% of the loop's samples under redis-benchmark.
        if (!tasks.isEmpty() || !newTimers.isEmpty()) {
            selector.selectNow(ready);
        } else {
            long wait = nanosToNextTimer();
            if (wait < 0) {
                selector.select(ready);
            } else if (wait == 0) {
                selector.selectNow(ready);
            } else {
                selector.select(ready, Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait + 999_999)));
            }
        }
        selecting.set(false);
        handleReadyKeys();
        runTimers();
        runTasks();
    }

    /** Nanoseconds until the first timer is due: 0 when one is, -1 when there is none. */
    private long nanosToNextTimer() {
        LoopTimer next;
        while ((next = timers.peek()) != null && next.isCancelled()) {
            timers.poll();
        }
        if (next == null) {
            return -1;
        }
        return Math.max(0, next.due() - System.nanoTime());
    }

    private void handleReadyKeys() {
        // handled after the select returned: handling a key may select again (a listener closing)
        SelectionKey[] keys = ready.keys;
        int count = ready.count;
        ready.count = 0;
        for (int i = 0; i < count; i++) {
            SelectionKey key = keys[i];
            keys[i] = null;
            try {
                if (key.isValid()) { // not cancelled by an earlier key's handling
                    ((LoopChannel) key.attachment()).ready(key.readyOps());
                }
            } catch (RuntimeException | Error failed) {
                failed.printStackTrace();
            }
        }
    }

    private void runTimers() {
        LoopTimer timer;
        while ((timer = newTimers.poll()) != null) {
            enqueue(timer);
        }
        long now = System.nanoTime();
        // a timer rescheduled at this same "now" is due after it, so this ends however small the period
        while ((timer = timers.peek()) != null && timer.due() - now <= 0) {
            timers.poll();
            if (!timer.isCancelled()) {
                runSafely(timer.task());
                if (timer.rescheduleAfterRun(now)) {
                    enqueue(timer);
                }
            }
        }
    }

    private void runTasks() {
        for (int i = 0; i < MAX_TASKS_PER_TURN; i++) {
            Runnable task = tasks.poll();
            if (task == null) {
                return;
            }
            runSafely(task);
        }
    }

    /** The end of the loop, on its thread: the channels closed, the queued tasks run, the selector closed. */
    private void finish() {
        try {
            closeChannels();
            Runnable task;
            while ((task = tasks.poll()) != null) {
                runSafely(task);
            }
            closeChannels(); // any those tasks registered
            newTimers.clear();
            timers.clear();
            try {
                selector.close(); // also releases the closed channels' sockets
            } catch (IOException failed) {
                failed.printStackTrace();
            }
        } finally {
            state.set(TERMINATED);
            terminated.countDown();
        }
    }

    private void closeChannels() {
        if (!selector.isOpen()) {
            return;
        }
        for (SelectionKey key : selector.keys().toArray(new SelectionKey[0])) {
            if (key.isValid()) {
                try {
                    ((LoopChannel) key.attachment()).closeForShutdown();
                } catch (RuntimeException | Error failed) {
                    failed.printStackTrace();
                }
            }
        }
    }

    private LoopTimer addTimer(Runnable task, long delay, long period, TimeUnit unit) {
        Objects.requireNonNull(task, "task");
        long delayNanos = Math.min(Math.max(0, unit.toNanos(delay)), MAX_DELAY_NANOS);
        long periodNanos = Math.min(unit.toNanos(period), MAX_DELAY_NANOS);
        LoopTimer timer = new LoopTimer(task, System.nanoTime() + delayNanos, periodNanos);
        if (state.get() != RUNNING) {
            throw rejected();
        }
        if (inLoop()) {
            enqueue(timer);
        } else {
            newTimers.add(timer);
            if (state.get() != RUNNING && newTimers.remove(timer)) {
                throw rejected();
            }
            wakeUp();
        }
        return timer;
    }

    private void enqueue(LoopTimer timer) {
        timer.sequence(timerSequence++);
        timers.add(timer);
    }

    private void wakeUp() {
        if (!inLoop() && selecting.compareAndSet(true, false)) {
            selector.wakeup();
        }
    }

    private static void runSafely(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException | Error failed) {
            failed.printStackTrace();
        }
    }

    private static RejectedExecutionException rejected() {
        return new RejectedExecutionException("the selector loop is shut down");
    }

    /** The loop's select action: gathers the ready keys, handled once the select has returned. */
    private static final class ReadyKeys implements Consumer<SelectionKey> {
        SelectionKey[] keys = new SelectionKey[16]; // reused every turn
        int count;

        @Override
        public void accept(SelectionKey key) {
            if (count == keys.length) {
                keys = Arrays.copyOf(keys, count * 2);
            }
            keys[count++] = key;
        }
    }

    /** The action of a selection made only to drop cancelled keys. */
    private static final class IgnoreKeys implements Consumer<SelectionKey> {
        static final IgnoreKeys INSTANCE = new IgnoreKeys();

        @Override
        public void accept(SelectionKey readyKeyLeftForTheLoop) {
            // the loop's own next select finds it ready again
        }
    }
}
