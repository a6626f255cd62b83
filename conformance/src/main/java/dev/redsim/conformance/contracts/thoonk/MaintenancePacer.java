package dev.redsim.conformance.contracts.thoonk;

import java.util.concurrent.TimeUnit;

/**
 * A maintainer thread that runs a pass whenever a worker asks for one, and moves the shared clock a little with
 * each pass. Workers use it to hold a claim (or the gap between BRPOP and the claim) across passes: what a slow
 * worker looks like to maintenance, without sleeping. The clock moves at most {@code budgetMillis} in all, so
 * that no claim can legitimately time out during the run: any second delivery is then a bug.
 */
final class MaintenancePacer implements AutoCloseable {
    private final ThoonkJobQueue maintainer;
    private final ManualClock clock;
    private final long stepMillis;
    private long budgetMillis;
    private long requested;
    private long done;
    private boolean closed;
    private RuntimeException failure;
    private final Thread thread;

    MaintenancePacer(ThoonkJobQueue maintainer, ManualClock clock, long stepMillis, long budgetMillis) {
        this.maintainer = maintainer;
        this.clock = clock;
        this.stepMillis = stepMillis;
        this.budgetMillis = budgetMillis;
        this.thread = new Thread(this::loop, "thoonk-maintenance-pacer");
        thread.setDaemon(true);
        thread.start();
    }

    /** Blocks until {@code n} more passes have run (bounded: 30 s, then the run fails). */
    void awaitPasses(int n) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        synchronized (this) {
            long target = Math.max(requested, done) + n;
            requested = Math.max(requested, target);
            notifyAll();
            while (done < target && !closed && failure == null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("maintenance passes did not run within 30 s");
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            if (failure != null) {
                throw failure;
            }
        }
    }

    synchronized long passes() {
        return done;
    }

    private void loop() {
        while (true) {
            synchronized (this) {
                while (!closed && done >= requested) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (closed) {
                    return;
                }
            }
            try {
                maintainer.maintain();
            } catch (RuntimeException e) {
                synchronized (this) {
                    failure = e;
                    notifyAll();
                }
                return;
            }
            synchronized (this) {
                long step = Math.min(stepMillis, budgetMillis);
                budgetMillis -= step;
                clock.advance(step);
                done++;
                notifyAll();
            }
        }
    }

    synchronized RuntimeException failure() {
        return failure;
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
