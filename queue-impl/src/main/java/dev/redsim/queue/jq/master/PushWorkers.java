package dev.redsim.queue.jq.master;

import dev.redsim.queue.jq.Assignment;
import dev.redsim.queue.jq.Msgpack;
import dev.redsim.queue.jq.Outcome;
import dev.redsim.queue.jq.ReportStatus;

import dev.redsim.queue.jq.http.HttpResponse;
import dev.redsim.queue.jq.http.KeepAliveClient;

import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The spec's delivery: the master sends each job to a registered worker's HTTP endpoint (POST, MessagePack
 * assignment) and the worker answers with the result object. One delivery thread per slot of the worker's
 * concurrency. The HTTP call is bounded by the job's timeout; the master's timeout sweep is the backstop.
 *
 * <p>A delivery that cannot even connect reached no worker: the job is un-claimed (back to the ready set, the
 * attempt not counted, see JobQueue.release) rather than failed, so an unreachable worker does not burn the job's
 * retries. After {@link #MAX_UNREACHABLE} such failures in a row the registration is dropped (the worker may
 * register again); between them the thread pauses a little so that a restarting worker has a moment.
 */
final class PushWorkers implements AutoCloseable {
    /** Deliveries in a row that could not connect, after which the worker is considered gone. */
    static final int MAX_UNREACHABLE = 3;
    private static final long UNREACHABLE_PAUSE_MILLIS = 100;

    record Registration(String id, String url, int concurrency, List<Thread> threads, AtomicInteger unreachable) {
    }

    private final QueueAccess queue;
    private final Signal signal;
    private final KeepAliveClient http = new KeepAliveClient();
    private final Map<String, Registration> registered = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();

    PushWorkers(QueueAccess queue, Signal signal) {
        this.queue = queue;
        this.signal = signal;
    }

    Registration register(String url, int concurrency) {
        URI.create(url);
        String id = "push-" + ids.incrementAndGet();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            Thread t = new Thread(() -> deliverLoop(id), "jq-push-" + id + "-" + i);
            t.setDaemon(true);
            threads.add(t);
        }
        Registration r = new Registration(id, url, concurrency, threads, new AtomicInteger());
        registered.put(id, r);
        threads.forEach(Thread::start);
        return r;
    }

    boolean unregister(String id) {
        Registration r = registered.remove(id);
        if (r == null) {
            return false;
        }
        r.threads().forEach(Thread::interrupt);
        return true;
    }

    List<Registration> list() {
        return registered.values().stream().sorted((a, b) -> a.id().compareTo(b.id())).toList();
    }

    private void deliverLoop(String id) {
        Registration r;
        while ((r = registered.get(id)) != null && !Thread.currentThread().isInterrupted()) {
            try {
                Optional<Assignment> claimed = queue.claimWaiting(id, 1_000, signal);
                if (claimed.isEmpty()) {
                    continue;
                }
                if (deliver(claimed.get(), r.url())) {
                    r.unreachable().set(0);
                    continue;
                }
                int inARow = r.unreachable().incrementAndGet();
                if (inARow >= MAX_UNREACHABLE) {
                    unregister(id);
                    return;
                }
                Thread.sleep(UNREACHABLE_PAUSE_MILLIS * inARow);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // Redis unreachable for a moment: the loop retries; claimed jobs are protected by their timeout.
            }
        }
    }

    /** Delivers and records the outcome; false when no connection could be made (the job is un-claimed). */
    private boolean deliver(Assignment a, String url) {
        Outcome outcome;
        try {
            KeepAliveClient.Response response = http.send(URI.create(url), "POST", HttpResponse.MSGPACK,
                    Msgpack.encode(Wire.assignment(a)), Duration.ofMillis(a.timeoutMillis()));
            outcome = response.status() == 200 ? Wire.outcome(response.body())
                    : failure("other", "worker answered HTTP " + response.status());
        } catch (KeepAliveClient.NotSentException e) {
            if (queue.with(q -> q.release(a.id(), a.attempt())) == ReportStatus.ACCEPTED) {
                signal.fire();
            }
            return false;
        } catch (SocketTimeoutException e) {
            outcome = failure("timeout", "worker did not answer within the timeout");
        } catch (Exception e) {
            if (Thread.currentThread().isInterrupted()) {
                return true; // unregistered mid-delivery: the attempt times out and is retried
            }
            outcome = failure("other", "delivery failed: " + e);
        }
        Outcome recorded = outcome;
        ReportStatus status = queue.with(q -> q.report(a.id(), a.attempt(), recorded));
        if (status == ReportStatus.ACCEPTED) {
            signal.fire();
        }
        return true;
    }

    private static Outcome failure(String reason, String message) {
        byte[] encoded = Msgpack.encode(Msgpack.map("type", "failure", "reason", reason,
                "finished_at", java.time.Instant.now().toString(), "should_retry", true, "error", null,
                "message", message));
        return new Outcome.Failure(encoded, reason, true, message);
    }

    @Override
    public void close() {
        new ArrayList<>(registered.keySet()).forEach(this::unregister);
        http.close();
    }
}
