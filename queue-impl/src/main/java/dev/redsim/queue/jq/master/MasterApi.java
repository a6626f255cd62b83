package dev.redsim.queue.jq.master;

import dev.redsim.queue.jq.AttemptReport;
import dev.redsim.queue.jq.Constraint;
import dev.redsim.queue.jq.JobRequest;
import dev.redsim.queue.jq.JobRecord;
import dev.redsim.queue.jq.JobState;
import dev.redsim.queue.jq.Msgpack;
import dev.redsim.queue.jq.Outcome;
import dev.redsim.queue.jq.ReportStatus;
import dev.redsim.queue.jq.TakenResult;
import dev.redsim.queue.jq.http.HttpRequest;
import dev.redsim.queue.jq.http.HttpResponse;
import dev.redsim.queue.jq.http.Problems;
import dev.redsim.queue.jq.http.Router;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The master's routes; every one of them is in openapi.json (JqOpenApiTest checks both ways). */
final class MasterApi {
    private static final long MAX_WAIT_MILLIS = 30_000;
    /** The most jobs, assignments or outcomes one batch call carries: bounds one script call and one body. */
    static final int MAX_BATCH = 1000;

    private final QueueAccess queue;
    private final Signal signal;
    private final PushWorkers push;
    private final MasterSettings settings;

    MasterApi(QueueAccess queue, Signal signal, PushWorkers push, MasterSettings settings) {
        this.queue = queue;
        this.signal = signal;
        this.push = push;
        this.settings = settings;
    }

    Router router() {
        return new Router()
                .add("GET", "/", (r, p) -> resource("index.html", "text/html; charset=utf-8"))
                .add("GET", "/openapi.json", (r, p) -> resource("openapi.json", "application/json"))
                .add("POST", "/jobs", (r, p) -> enqueue(r))
                .add("POST", "/jobs/batch", (r, p) -> enqueueMany(r))
                .add("POST", "/outcomes", (r, p) -> reportMany(r))
                .add("GET", "/jobs/{id}", (r, p) -> job(id(p)))
                .add("POST", "/jobs/{id}/result", (r, p) -> takeResult(id(p)))
                .add("POST", "/jobs/{id}/cancel", (r, p) -> cancel(id(p)))
                .add("POST", "/jobs/{id}/attempts/{attempt}/outcome", (r, p) -> report(r, id(p), p.get("attempt")))
                .add("POST", "/workers/next", (r, p) -> next(r))
                .add("POST", "/workers/next/batch", (r, p) -> nextMany(r))
                .add("GET", "/workers", (r, p) -> workers())
                .add("POST", "/workers", (r, p) -> register(r))
                .add("DELETE", "/workers/{worker}", (r, p) -> unregister(p.get("worker")))
                .add("GET", "/constraints", (r, p) -> constraints(r))
                .add("PUT", "/constraints/{id}", (r, p) -> putConstraint(r, p.get("id")))
                .add("DELETE", "/constraints/{id}", (r, p) -> removeConstraint(p.get("id")))
                .add("GET", "/ui/overview", (r, p) -> overview(r))
                .add("GET", "/ui/jobs", (r, p) -> jobs(r));
    }

    private HttpResponse enqueue(HttpRequest r) {
        var request = Wire.jobRequest(Msgpack.decode(r.body()));
        long id = queue.with(q -> q.enqueue(request));
        signal.fire();
        return HttpResponse.msgpack(201, Msgpack.encode(Msgpack.map("id", id)));
    }

    /** Push many: {jobs: [JobRequest...]} -> 201 {ids: [...]}, in order; all or none (one bad request: 400). */
    private HttpResponse enqueueMany(HttpRequest r) {
        List<JobRequest> requests = new ArrayList<>();
        for (Value job : batch(Msgpack.fields(Msgpack.decode(r.body())), "jobs")) {
            requests.add(Wire.jobRequest(job));
        }
        List<Long> ids = queue.with(q -> q.enqueueMany(requests));
        if (ids.size() == 1) {
            signal.fire();
        } else {
            signal.fireAll(); // several jobs: several waiters may each find one
        }
        return HttpResponse.msgpack(201, Msgpack.encode(Msgpack.map("ids",
                ValueFactory.newArray(ids.stream().map(id -> (Value) ValueFactory.newInteger(id)).toList()))));
    }

    /**
     * Report many: {outcomes: [{id, attempt, outcome}...]} -> 200 {statuses: ["accepted" | "stale"...]}, in order:
     * each is fenced on its own (a stale one changes nothing and does not fail the others).
     */
    private HttpResponse reportMany(HttpRequest r) {
        List<AttemptReport> reports = new ArrayList<>();
        for (Value item : batch(Msgpack.fields(Msgpack.decode(r.body())), "outcomes")) {
            Map<String, Value> f = Msgpack.fields(item);
            Value id = f.get("id");
            Value attempt = f.get("attempt");
            Value outcome = f.get("outcome");
            if (id == null || attempt == null || outcome == null || outcome.isNilValue()) {
                throw new IllegalArgumentException("every outcome needs id, attempt and outcome");
            }
            reports.add(new AttemptReport(id.asIntegerValue().toLong(), attempt.asIntegerValue().toInt(),
                    Wire.outcome(Msgpack.encode(outcome))));
        }
        List<ReportStatus> statuses = queue.with(q -> q.reportMany(reports));
        long accepted = statuses.stream().filter(s -> s == ReportStatus.ACCEPTED).count();
        if (accepted > 0) {
            signal.fireAll(); // finished attempts may have freed constraint slots for several waiters
        }
        return HttpResponse.msgpack(200, Msgpack.encode(Msgpack.map("statuses", ValueFactory.newArray(statuses
                .stream().map(s -> (Value) ValueFactory.newString(s == ReportStatus.ACCEPTED ? "accepted" : "stale"))
                .toList()))));
    }

    /** Take many: {worker, max, wait_ms} -> 200 {jobs: [Assignment...]}, empty when none came within wait_ms. */
    private HttpResponse nextMany(HttpRequest r) throws InterruptedException {
        Map<String, Value> f = r.body().length == 0 ? Map.of() : Msgpack.fields(Msgpack.decode(r.body()));
        String worker = f.containsKey("worker") ? f.get("worker").asStringValue().asString() : "anonymous";
        long wait = f.containsKey("wait_ms") ? f.get("wait_ms").asIntegerValue().toLong() : 0;
        long max = f.containsKey("max") ? f.get("max").asIntegerValue().toLong() : 1;
        if (wait < 0) {
            throw new IllegalArgumentException("wait_ms must be >= 0");
        }
        if (max < 1 || max > MAX_BATCH) {
            throw new IllegalArgumentException("max must be in 1.." + MAX_BATCH);
        }
        var claimed = queue.claimManyWaiting(worker, (int) max, Math.min(wait, MAX_WAIT_MILLIS), signal);
        return HttpResponse.msgpack(200, Msgpack.encode(Msgpack.map("jobs",
                ValueFactory.newArray(claimed.stream().map(Wire::assignment).toList()))));
    }

    private static List<Value> batch(Map<String, Value> body, String field) {
        Value items = body.get(field);
        if (items == null || !items.isArrayValue()) {
            throw new IllegalArgumentException("missing array field: " + field);
        }
        List<Value> list = items.asArrayValue().list();
        if (list.isEmpty() || list.size() > MAX_BATCH) {
            throw new IllegalArgumentException(field + " must hold 1.." + MAX_BATCH + " items");
        }
        return list;
    }

    private HttpResponse job(long id) {
        Optional<JobRecord> job = queue.with(q -> q.job(id));
        return job.map(j -> HttpResponse.msgpack(200, Msgpack.encode(Wire.job(j))))
                .orElseGet(() -> Problems.problem(404, "no such job (or its record was trimmed)"));
    }

    private HttpResponse takeResult(long id) {
        TakenResult taken = queue.with(q -> q.takeResultWithState(id));
        Value body = Msgpack.map("id", id, "state", taken.state().map(JobState::wire).orElse(null),
                "result", taken.result().map(Msgpack::decode).orElse(null));
        return HttpResponse.msgpack(200, Msgpack.encode(body));
    }

    private HttpResponse cancel(long id) {
        var result = queue.with(q -> q.cancel(id));
        if (result.isEmpty()) {
            return Problems.problem(404, "no such job (or its record was trimmed)");
        }
        if (result.get().cancelled()) {
            signal.fireAll(); // a running attempt gave its constraint slot back
        }
        return HttpResponse.msgpack(200, Msgpack.encode(Msgpack.map("id", id, "state", result.get().state().wire(),
                "cancelled", result.get().cancelled())));
    }

    private HttpResponse report(HttpRequest r, long id, String attemptText) {
        int attempt = Integer.parseInt(attemptText);
        Outcome outcome = Wire.outcome(r.body());
        ReportStatus status = queue.with(q -> q.report(id, attempt, outcome));
        if (status == ReportStatus.STALE) {
            return Problems.problem(409, "attempt " + attempt + " of job " + id + " is not running any more");
        }
        signal.fire();
        return HttpResponse.empty(204);
    }

    private HttpResponse next(HttpRequest r) throws InterruptedException {
        Map<String, Value> f = r.body().length == 0 ? Map.of() : Msgpack.fields(Msgpack.decode(r.body()));
        String worker = f.containsKey("worker") ? f.get("worker").asStringValue().asString() : "anonymous";
        long wait = f.containsKey("wait_ms") ? f.get("wait_ms").asIntegerValue().toLong() : 0;
        if (wait < 0) {
            throw new IllegalArgumentException("wait_ms must be >= 0");
        }
        var claimed = queue.claimWaiting(worker, Math.min(wait, MAX_WAIT_MILLIS), signal);
        return claimed.map(a -> HttpResponse.msgpack(200, Msgpack.encode(Wire.assignment(a))))
                .orElseGet(() -> HttpResponse.empty(204));
    }

    private HttpResponse workers() {
        List<Value> list = push.list().stream()
                .map(w -> (Value) Msgpack.map("worker", w.id(), "url", w.url(), "concurrency", w.concurrency()))
                .toList();
        return HttpResponse.msgpack(200, Msgpack.encode(ValueFactory.newArray(list)));
    }

    private HttpResponse register(HttpRequest r) {
        Map<String, Value> f = Msgpack.fields(Msgpack.decode(r.body()));
        Value url = f.get("url");
        if (url == null || !url.isStringValue()) {
            throw new IllegalArgumentException("missing field: url");
        }
        if (!settings.pushAllowed(url.asStringValue().asString())) {
            // Without this the master would POST to any URL a client names (internal services included).
            return Problems.problem(403, settings.pushAllowList().isEmpty()
                    ? "push delivery is off (start the master with a push allow-list); use POST /workers/next"
                    : "url is not in the master's push allow-list");
        }
        int concurrency = f.containsKey("concurrency") ? f.get("concurrency").asIntegerValue().toInt() : 1;
        if (concurrency < 1 || concurrency > 256) {
            throw new IllegalArgumentException("concurrency must be in 1..256");
        }
        var reg = push.register(url.asStringValue().asString(), concurrency);
        return HttpResponse.msgpack(201, Msgpack.encode(Msgpack.map("worker", reg.id(), "url", reg.url(),
                "concurrency", reg.concurrency())));
    }

    private HttpResponse unregister(String worker) {
        return push.unregister(worker) ? HttpResponse.empty(204) : Problems.problem(404, "no such worker");
    }

    private HttpResponse constraints(HttpRequest r) {
        List<Value> list = queue.with(q -> {
            Map<String, long[]> usage = q.constraintUsage();
            List<Value> out = new ArrayList<>();
            for (Constraint c : q.constraints()) {
                long[] u = usage.getOrDefault(c.id(), new long[2]);
                Map<Value, Value> m = new LinkedHashMap<>(c.toValue().asMapValue().map());
                m.put(ValueFactory.newString("running"), ValueFactory.newInteger(u[0]));
                m.put(ValueFactory.newString("in_window"), ValueFactory.newInteger(u[1]));
                out.add(ValueFactory.newMap(m));
            }
            return out;
        });
        return answer(r, ValueFactory.newArray(list));
    }

    private HttpResponse putConstraint(HttpRequest r, String id) {
        Constraint c = Constraint.fromValue(id, Msgpack.decode(r.body()));
        queue.with(q -> {
            q.putConstraint(c);
            return null;
        });
        signal.fireAll();
        return HttpResponse.empty(204);
    }

    private HttpResponse removeConstraint(String id) {
        boolean removed = queue.with(q -> q.removeConstraint(id));
        signal.fireAll();
        return removed ? HttpResponse.empty(204) : Problems.problem(404, "no such constraint");
    }

    private HttpResponse overview(HttpRequest r) {
        Value body = queue.with(q -> {
            Map<String, Map<JobState, Long>> counts = q.counts();
            Map<Value, Value> queues = new LinkedHashMap<>();
            Map<JobState, Long> totals = new LinkedHashMap<>();
            counts.forEach((name, byState) -> {
                queues.put(ValueFactory.newString(name), stateMap(byState));
                byState.forEach((s, n) -> totals.merge(s, n, Long::sum));
            });
            for (JobState s : JobState.values()) {
                totals.putIfAbsent(s, 0L);
            }
            return Msgpack.map("queues", ValueFactory.newMap(queues), "totals", stateMap(totals),
                    "recent_failures", ValueFactory.newArray(q.recentFailures(20)));
        });
        return answer(r, body);
    }

    private HttpResponse jobs(HttpRequest r) {
        JobState state = JobState.fromWire(r.query().getOrDefault("state", "queued"));
        int limit = Integer.parseInt(r.query().getOrDefault("limit", "50"));
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("limit must be in 1..1000");
        }
        List<Value> jobs = queue.with(q -> q.jobs(state, limit)).stream().map(Wire::job).toList();
        return answer(r, Msgpack.map("state", state.wire(), "jobs", ValueFactory.newArray(jobs)));
    }

    private static Value stateMap(Map<JobState, Long> byState) {
        Map<Value, Value> m = new LinkedHashMap<>();
        byState.forEach((s, n) -> m.put(ValueFactory.newString(s.wire()), ValueFactory.newInteger(n)));
        return ValueFactory.newMap(m);
    }

    /** UI answers: MessagePack, or JSON when the client sends Accept: application/json (the web page does). */
    private static HttpResponse answer(HttpRequest r, Value body) {
        return r.wantsJson() ? HttpResponse.text(200, "application/json", body.toJson())
                : HttpResponse.msgpack(200, Msgpack.encode(body));
    }

    private static long id(Map<String, String> params) {
        return Long.parseLong(params.get("id"));
    }

    private static HttpResponse resource(String name, String type) {
        try (InputStream in = MasterApi.class.getResourceAsStream("/jq/" + name)) {
            if (in == null) {
                return Problems.problem(500, "missing resource " + name);
            }
            return new HttpResponse(200, type, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
