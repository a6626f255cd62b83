package dev.redsim.queue.jq.client;

import dev.redsim.queue.jq.Msgpack;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The pusher's client: enqueue jobs, take kept results.
 *
 * <pre>{@code
 * JqPusher pusher = new JqPusher(URI.create("http://127.0.0.1:8080"));
 * long id = pusher.enqueue(JqPusher.job("resize", Msgpack.map("image", "a.png")).keepResult(true));
 * Optional<Value> outcome = pusher.takeResult(id);   // the worker's result object, once
 * }</pre>
 */
public final class JqPusher implements AutoCloseable {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private final JqHttp http;

    public JqPusher(URI master) {
        this(master, null);
    }

    /** @param token the master's API token (its --api-token), or null */
    public JqPusher(URI master, String token) {
        this.http = new JqHttp(master, token);
    }

    /** A job to enqueue, with the spec's defaults (priority 0, no retry, result dropped, timeout 30 s). */
    public static Job job(String name, Value argument) {
        return new Job(name, argument, 0, 0, false, 30);
    }

    public record Job(String name, Value argument, int priority, int maxRetry, boolean keepResult,
                      double timeoutSeconds) {
        public Job priority(int p) {
            return new Job(name, argument, p, maxRetry, keepResult, timeoutSeconds);
        }

        public Job maxRetry(int r) {
            return new Job(name, argument, priority, r, keepResult, timeoutSeconds);
        }

        public Job keepResult(boolean k) {
            return new Job(name, argument, priority, maxRetry, k, timeoutSeconds);
        }

        public Job timeoutSeconds(double t) {
            return new Job(name, argument, priority, maxRetry, keepResult, t);
        }

        Value toValue() {
            return Msgpack.map("name", name, "argument", argument, "priority", priority, "max_retry", maxRetry,
                    "keep_result", keepResult, "timeout", timeoutSeconds);
        }
    }

    /** @return the new job's id */
    public long enqueue(Job job) {
        JqHttp.Reply r = http.expect(http.send("POST", "/jobs", job.toValue(), TIMEOUT), 201);
        return Msgpack.fields(r.value()).get("id").asIntegerValue().toLong();
    }

    /** Enqueues 1..1000 jobs in one call (POST /jobs/batch): all or none; their ids in the order given. */
    public List<Long> enqueueMany(List<Job> jobs) {
        Value body = Msgpack.map("jobs", ValueFactory.newArray(jobs.stream().map(Job::toValue).toList()));
        JqHttp.Reply r = http.expect(http.send("POST", "/jobs/batch", body, TIMEOUT), 201);
        return Msgpack.fields(r.value()).get("ids").asArrayValue().list().stream()
                .map(v -> v.asIntegerValue().toLong()).toList();
    }

    /** The job's state ("queued", "delayed", "running", "succeeded", "failed"), empty when unknown. */
    public Optional<String> state(long id) {
        JqHttp.Reply r = http.expect(http.send("GET", "/jobs/" + id, null, TIMEOUT), 200, 404);
        return r.status() == 404 ? Optional.empty()
                : Optional.of(Msgpack.fields(r.value()).get("state").asStringValue().asString());
    }

    /**
     * Takes the kept result object ({type: success, result, ...} or {type: failure, ...}) once; empty when not
     * finished, not kept, already taken, or past retention.
     */
    public Optional<Value> takeResult(long id) {
        JqHttp.Reply r = http.expect(http.send("POST", "/jobs/" + id + "/result", null, TIMEOUT), 200);
        Value result = Msgpack.fields(r.value()).get("result");
        return result == null || result.isNilValue() ? Optional.empty() : Optional.of(result);
    }

    /**
     * Cancels a job that has not finished (it ends as failed, reason "cancelled"; a running attempt's late report
     * is refused). @return false when the job had already finished (nothing changed)
     */
    public boolean cancel(long id) {
        JqHttp.Reply r = http.expect(http.send("POST", "/jobs/" + id + "/cancel", null, TIMEOUT), 200);
        return Msgpack.fields(r.value()).get("cancelled").asBooleanValue().getBoolean();
    }

    /** Creates or replaces a constraint (see the Constraint schema). */
    public void putConstraint(String id, Value definition) {
        http.expect(http.send("PUT", "/constraints/" + id, definition, TIMEOUT), 204);
    }

    /** Closes the kept-alive connections to the master. */
    @Override
    public void close() {
        http.close();
    }

}
