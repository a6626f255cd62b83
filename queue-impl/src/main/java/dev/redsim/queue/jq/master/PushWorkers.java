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
 */
final class PushWorkers implements AutoCloseable {
    record Registration(String id, String url, int concurrency, List<Thread> threads) {
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
            Thread t = new Thread(() -> deliverLoop(id, url), "jq-push-" + id + "-" + i);
            t.setDaemon(true);
            threads.add(t);
        }
        Registration r = new Registration(id, url, concurrency, threads);
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

    private void deliverLoop(String id, String url) {
        while (registered.containsKey(id) && !Thread.currentThread().isInterrupted()) {
            try {
                Optional<Assignment> claimed = queue.claimWaiting(id, 1_000, signal);
                claimed.ifPresent(a -> deliver(a, url));
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // Redis unreachable for a moment: the loop retries; claimed jobs are protected by their timeout.
            }
        }
    }

    private void deliver(Assignment a, String url) {
        Outcome outcome;
        try {
            KeepAliveClient.Response response = http.send(URI.create(url), "POST", HttpResponse.MSGPACK,
                    Msgpack.encode(Wire.assignment(a)), Duration.ofMillis(a.timeoutMillis()));
            outcome = response.status() == 200 ? Wire.outcome(response.body())
                    : failure("other", "worker answered HTTP " + response.status());
        } catch (SocketTimeoutException e) {
            outcome = failure("timeout", "worker did not answer within the timeout");
        } catch (Exception e) {
            if (Thread.currentThread().isInterrupted()) {
                return; // unregistered mid-delivery: the attempt times out and is retried
            }
            outcome = failure("other", "delivery failed: " + e);
        }
        Outcome recorded = outcome;
        ReportStatus status = queue.with(q -> q.report(a.id(), a.attempt(), recorded));
        if (status == ReportStatus.ACCEPTED) {
            signal.fire();
        }
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
