package dev.redsim.queue.jq.master;

import dev.redsim.queue.jq.Assignment;
import dev.redsim.queue.jq.JobRecord;
import dev.redsim.queue.jq.JobRequest;
import dev.redsim.queue.jq.Msgpack;
import dev.redsim.queue.jq.Outcome;
import org.msgpack.value.Value;

import java.time.Instant;
import java.util.Map;

/** The API's MessagePack records, to and from the queue's types (field names as in openapi.json). */
final class Wire {
    private Wire() {
    }

    static JobRequest jobRequest(Value body) {
        Map<String, Value> f = Msgpack.fields(body);
        Value name = require(f, "name");
        if (!name.isStringValue()) {
            throw new IllegalArgumentException("name must be a string");
        }
        Value argument = f.getOrDefault("argument", org.msgpack.value.ValueFactory.newNil());
        long priority = f.containsKey("priority") ? f.get("priority").asIntegerValue().toLong() : 0;
        if (priority < Integer.MIN_VALUE || priority > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("priority must be a signed 32-bit integer");
        }
        int maxRetry = f.containsKey("max_retry") ? f.get("max_retry").asIntegerValue().toInt() : 0;
        boolean keep = f.containsKey("keep_result") && f.get("keep_result").asBooleanValue().getBoolean();
        long timeoutMillis = JobRequest.DEFAULT_TIMEOUT_MILLIS;
        if (f.containsKey("timeout") && !f.get("timeout").isNilValue()) {
            Value t = f.get("timeout");
            double seconds = t.isIntegerValue() ? t.asIntegerValue().toLong() : t.asFloatValue().toDouble();
            if (!(seconds > 0) || seconds > 86_400 * 365) {
                throw new IllegalArgumentException("timeout must be a positive number of seconds");
            }
            timeoutMillis = Math.max(1, Math.round(seconds * 1000));
        }
        return new JobRequest(name.asStringValue().asString(), Msgpack.encode(argument), (int) priority, maxRetry,
                keep, timeoutMillis);
    }

    static Outcome outcome(byte[] body) {
        Value value = Msgpack.decode(body);
        Map<String, Value> f = Msgpack.fields(value);
        String type = require(f, "type").asStringValue().asString();
        require(f, "finished_at").asStringValue();
        if (type.equals("success")) {
            return new Outcome.Success(body);
        }
        if (!type.equals("failure")) {
            throw new IllegalArgumentException("type must be \"success\" or \"failure\"");
        }
        String reason = require(f, "reason").asStringValue().asString();
        if (!reason.equals("other") && !reason.equals("timeout")) {
            throw new IllegalArgumentException("reason must be \"other\" or \"timeout\"");
        }
        boolean shouldRetry = require(f, "should_retry").asBooleanValue().getBoolean();
        Value message = f.get("message");
        return new Outcome.Failure(body, reason, shouldRetry,
                message == null || message.isNilValue() ? "" : message.isStringValue() ? message.asStringValue().asString() : message.toJson());
    }

    static Value job(JobRecord j) {
        return Msgpack.map("id", j.id(), "name", j.request().name(), "state", j.state().wire(),
                "argument", j.request().argument(), "priority", j.request().priority(),
                "max_retry", j.request().maxRetry(), "keep_result", j.request().keepResult(),
                "timeout", j.request().timeoutMillis() / 1000.0, "attempts", j.attempts(),
                "enqueued_at", iso(j.enqueuedAt()), "finished_at", j.finishedAt() == 0 ? null : iso(j.finishedAt()),
                "worker", j.worker(), "last_message", j.lastMessage());
    }

    static Value assignment(Assignment a) {
        return Msgpack.map("id", a.id(), "attempt", a.attempt(), "name", a.name(), "argument", a.argument(),
                "timeout", a.timeoutMillis() / 1000.0, "deadline", iso(a.deadlineMillis()));
    }

    static String iso(long millis) {
        return Instant.ofEpochMilli(millis).toString();
    }

    private static Value require(Map<String, Value> f, String field) {
        Value v = f.get(field);
        if (v == null || v.isNilValue()) {
            throw new IllegalArgumentException("missing field: " + field);
        }
        return v;
    }
}
