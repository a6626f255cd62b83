package dev.redsim.simulator.net;

import dev.redsim.simulator.protocol.Input;
import dev.redsim.simulator.server.Connection;
import dev.redsim.simulator.server.ConnectionDriver;

import java.io.ByteArrayOutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A connection driver for the net package's tests: it keeps what it reads (or only counts it), hands each read to a
 * test's reaction, and records how often, and on which thread, it heard opened() and closed().
 */
class RecordingDriver implements ConnectionDriver {
    /** What a test does with the bytes of one read (the driver consumed and kept them already). */
    interface Reaction {
        void read(RecordingDriver driver, byte[] newBytes);
    }

    final Connection connection;
    final CountDownLatch opened = new CountDownLatch(1);
    final CountDownLatch closed = new CountDownLatch(1);
    final AtomicInteger closedCount = new AtomicInteger();
    final AtomicLong receivedBytes = new AtomicLong();
    final AtomicInteger reads = new AtomicInteger();
    final AtomicInteger largestRead = new AtomicInteger();
    volatile boolean closedOnLoop;
    volatile int readSize = 16 * 1024;
    volatile boolean keepBytes = true;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private final Reaction reaction;

    RecordingDriver(Connection connection, Reaction reaction) {
        this.connection = connection;
        this.reaction = reaction;
    }

    @Override
    public void opened() {
        opened.countDown();
    }

    @Override
    public void read(Input input, int newBytes) {
        reads.incrementAndGet();
        largestRead.accumulateAndGet(newBytes, Math::max);
        byte[] bytes = new byte[input.readableBytes()];
        input.read(bytes, 0, bytes.length);
        if (keepBytes) {
            synchronized (kept) {
                kept.write(bytes, 0, bytes.length);
            }
        }
        synchronized (this) { // counted once kept: a test that waited for the count finds the bytes
            receivedBytes.addAndGet(bytes.length);
            notifyAll();
        }
        if (reaction != null) {
            reaction.read(this, bytes);
        }
    }

    @Override
    public int nextReadSize() {
        return readSize;
    }

    @Override
    public void closed() {
        closedOnLoop = ((SelectorLoop) connection.loop()).inLoop();
        closedCount.incrementAndGet();
        closed.countDown();
    }

    /** Waits (woken by each read) until {@code count} bytes came, at most 10 s; returns how many came. */
    synchronized long awaitReceived(long count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long left;
        while (receivedBytes.get() < count && (left = deadline - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return receivedBytes.get();
    }

    byte[] received() {
        synchronized (kept) {
            return kept.toByteArray();
        }
    }
}
