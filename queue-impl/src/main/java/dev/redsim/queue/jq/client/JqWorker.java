package dev.redsim.queue.jq.client;

import org.msgpack.value.ValueFactory;
import dev.redsim.queue.jq.Msgpack;
import dev.redsim.queue.jq.http.HttpResponse;
import dev.redsim.queue.jq.http.HttpServer;
import dev.redsim.queue.jq.http.Router;
import org.msgpack.value.Value;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The worker's client, in both delivery modes.
 * <ul>
 *   <li>Long-poll: {@link #start(int)} runs threads that ask POST /workers/next and report each outcome.</li>
 *   <li>Push (the spec's design): {@link #serve(String, int)} offers POST /run; {@link #register} gives that URL to
 *   the master, which then sends jobs to it.</li>
 * </ul>
 */
public final class JqWorker implements AutoCloseable {
    private static final long POLL_MILLIS = 5_000;

    private final String name;
    private final JobHandler handler;
    private final JqHttp http;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    private HttpServer server;
    private String registration;

    public JqWorker(URI master, String name, JobHandler handler) {
        this(master, name, handler, null);
    }

    /** @param token the master's API token (its --api-token), or null */
    public JqWorker(URI master, String name, JobHandler handler, String token) {
        this.name = name;
        this.handler = handler;
        this.http = new JqHttp(master, token);
    }

    /** Long-poll mode: {@code concurrency} threads, each running one job at a time. */
    public JqWorker start(int concurrency) {
        return start(concurrency, 1);
    }

    /**
     * Long-poll mode: {@code concurrency} threads, each taking up to {@code batch} jobs per call
     * (POST /workers/next/batch), running them one after another and reporting them in one call (POST /outcomes).
     * A batch's jobs all start their timeouts when taken: size it so the last one finishes in time.
     */
    public JqWorker start(int concurrency, int batch) {
        for (int i = 0; i < concurrency; i++) {
            Runnable loop = batch == 1 ? this::pollLoop : () -> pollLoop(batch);
            Thread t = new Thread(loop, "jq-worker-" + name + "-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        return this;
    }

    /** Long-poll: runs at most one job, waiting up to {@code waitMillis} for it; false when none came. */
    public boolean runOnce(long waitMillis) {
        JqHttp.Reply r = http.expect(http.send("POST", "/workers/next", Msgpack.map("worker", name,
                "wait_ms", waitMillis), Duration.ofMillis(waitMillis + 30_000)), 200, 204);
        if (r.status() == 204) {
            return false;
        }
        Map<String, Value> a = Msgpack.fields(r.value());
        long id = a.get("id").asIntegerValue().toLong();
        int attempt = a.get("attempt").asIntegerValue().toInt();
        Value outcome = execute(a.get("name").asStringValue().asString(), a.get("argument"));
        // 409: this attempt timed out meanwhile and the master has moved on; nothing to do.
        http.expect(http.send("POST", "/jobs/" + id + "/attempts/" + attempt + "/outcome", outcome,
                Duration.ofSeconds(30)), 204, 409);
        return true;
    }

    /**
     * Long-poll, batched: takes up to {@code max} jobs in one call, waiting up to {@code waitMillis} for at least one,
     * runs them in order and reports every outcome in one call. @return how many jobs ran
     */
    public int runBatch(int max, long waitMillis) {
        JqHttp.Reply r = http.expect(http.send("POST", "/workers/next/batch", Msgpack.map("worker", name,
                "max", max, "wait_ms", waitMillis), Duration.ofMillis(waitMillis + 30_000)), 200);
        List<Value> jobs = Msgpack.fields(r.value()).get("jobs").asArrayValue().list();
        if (jobs.isEmpty()) {
            return 0;
        }
        List<Value> outcomes = new ArrayList<>(jobs.size());
        for (Value job : jobs) {
            Map<String, Value> a = Msgpack.fields(job);
            Value outcome = execute(a.get("name").asStringValue().asString(), a.get("argument"));
            outcomes.add(Msgpack.map("id", a.get("id"), "attempt", a.get("attempt"), "outcome", outcome));
        }
        // A "stale" status: that attempt timed out meanwhile and the master has moved on; nothing to do.
        http.expect(http.send("POST", "/outcomes", Msgpack.map("outcomes", ValueFactory.newArray(outcomes)),
                Duration.ofSeconds(30)), 200);
        return jobs.size();
    }

    /** Push mode: serves POST /run on {@code bind:port} (0 = a free port). */
    public JqWorker serve(String bind, int port) {
        Router router = new Router().add("POST", "/run", (request, params) -> {
            Map<String, Value> a = Msgpack.fields(Msgpack.decode(request.body()));
            Value outcome = execute(a.get("name").asStringValue().asString(), a.get("argument"));
            return HttpResponse.msgpack(200, Msgpack.encode(outcome));
        });
        server = HttpServer.start(bind, port, router);
        return this;
    }

    /** Push mode: asks the master to send jobs to this worker's /run, {@code concurrency} at a time. */
    public JqWorker register(String host, int concurrency) {
        String url = "http://" + host + ":" + server.port() + "/run";
        JqHttp.Reply r = http.expect(http.send("POST", "/workers", Msgpack.map("url", url,
                "concurrency", concurrency), Duration.ofSeconds(30)), 201);
        registration = Msgpack.fields(r.value()).get("worker").asStringValue().asString();
        return this;
    }

    public int port() {
        return server.port();
    }

    private void pollLoop() {
        pollLoop(1);
    }

    private void pollLoop(int batch) {
        while (running.get()) {
            try {
                if (batch == 1) {
                    runOnce(POLL_MILLIS);
                } else {
                    runBatch(batch, POLL_MILLIS);
                }
            } catch (RuntimeException | LinkageError | AssertionError | StackOverflowError e) {
                if (!running.get()) {
                    return;
                }
                // The master is unreachable or restarting: the claimed job (if any) times out and is retried.
                try {
                    Thread.sleep(200);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    private Value execute(String jobName, Value argument) {
        try {
            Value result = handler.run(jobName, argument);
            return Msgpack.map("type", "success", "finished_at", Instant.now().toString(), "result", result);
        } catch (JobFailedException e) {
            return failure(e.getMessage(), e.shouldRetry(), e.error());
        } catch (Exception | LinkageError | AssertionError | StackOverflowError e) {
            // Errors a handler can cause (a failed assertion, a missing class, deep recursion) fail the attempt
            // like exceptions: escaping, they ended the worker thread without a word. OutOfMemoryError and other
            // VirtualMachineErrors still propagate: the JVM is not in a state to go on.
            return failure(String.valueOf(e), true, null);
        }
    }

    private static Value failure(String message, boolean shouldRetry, Value error) {
        return Msgpack.map("type", "failure", "reason", "other", "finished_at", Instant.now().toString(),
                "should_retry", shouldRetry, "error", error, "message", message);
    }

    @Override
    public void close() {
        running.set(false);
        if (registration != null) {
            try {
                http.send("DELETE", "/workers/" + registration, null, Duration.ofSeconds(5));
            } catch (RuntimeException e) {
                // The master is gone already; nothing to unregister.
            }
        }
        if (server != null) {
            server.close();
        }
        threads.forEach(Thread::interrupt);
        http.close();
    }


}
