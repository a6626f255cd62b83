package dev.redsim.queue.jq;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A job's hash, read back: attributes, state, attempts so far, and the constraints its running attempt holds. */
public record JobRecord(long id, JobRequest request, JobState state, int attempts, long enqueuedAt,
                        long eligibleAt, long deadline, long finishedAt, String worker, String lastMessage,
                        List<String> heldConstraints) {
    static final String NAME = "name";
    static final String ARGUMENT = "argument";
    static final String PRIORITY = "priority";
    static final String MAX_RETRY = "max_retry";
    static final String KEEP_RESULT = "keep_result";
    static final String TIMEOUT_MS = "timeout_ms";
    static final String STATE = "state";
    static final String ATTEMPTS = "attempts";
    static final String ENQUEUED_AT = "enqueued_at";
    static final String ELIGIBLE_AT = "eligible_at";
    static final String DEADLINE = "deadline";
    static final String FINISHED_AT = "finished_at";
    static final String WORKER = "worker";
    static final String LAST_MESSAGE = "last_message";
    static final String CONSTRAINTS = "constraints";

    static Map<byte[], byte[]> fieldsOf(JobRequest r, long now) {
        Map<byte[], byte[]> f = new HashMap<>();
        f.put(JqContext.bytes(NAME), JqContext.bytes(r.name()));
        f.put(JqContext.bytes(ARGUMENT), r.argument());
        f.put(JqContext.bytes(PRIORITY), JqContext.bytes(r.priority()));
        f.put(JqContext.bytes(MAX_RETRY), JqContext.bytes(r.maxRetry()));
        f.put(JqContext.bytes(KEEP_RESULT), JqContext.bytes(r.keepResult() ? 1 : 0));
        f.put(JqContext.bytes(TIMEOUT_MS), JqContext.bytes(r.timeoutMillis()));
        f.put(JqContext.bytes(STATE), JqContext.bytes(JobState.QUEUED.wire()));
        f.put(JqContext.bytes(ATTEMPTS), JqContext.bytes(0));
        f.put(JqContext.bytes(ENQUEUED_AT), JqContext.bytes(now));
        return f;
    }

    /** Null when the hash is empty (no such job, or its record was trimmed). */
    static JobRecord read(long id, Map<byte[], byte[]> raw) {
        if (raw == null || raw.isEmpty()) {
            return null;
        }
        Map<String, byte[]> f = new HashMap<>();
        raw.forEach((k, v) -> f.put(JqContext.text(k), v));
        JobRequest request = new JobRequest(JqContext.text(f.get(NAME)), f.get(ARGUMENT),
                (int) num(f, PRIORITY), (int) num(f, MAX_RETRY), num(f, KEEP_RESULT) == 1, num(f, TIMEOUT_MS));
        return new JobRecord(id, request, JobState.fromWire(JqContext.text(f.get(STATE))), (int) num(f, ATTEMPTS),
                num(f, ENQUEUED_AT), num(f, ELIGIBLE_AT), num(f, DEADLINE), num(f, FINISHED_AT),
                JqContext.text(f.get(WORKER)), JqContext.text(f.get(LAST_MESSAGE)),
                heldConstraints(f.get(CONSTRAINTS)));
    }

    /**
     * The held constraint ids as a MessagePack array of strings. They used to be joined with ",", which a
     * constraint id may contain: "tenant,a" was read back as "tenant" and "a", so its slot was never freed.
     */
    static byte[] encodeHeld(List<String> ids) {
        return Msgpack.encode(org.msgpack.value.ValueFactory.newArray(
                ids.stream().map(id -> (org.msgpack.value.Value) org.msgpack.value.ValueFactory.newString(id)).toList()));
    }

    private static List<String> heldConstraints(byte[] raw) {
        if (raw == null || raw.length == 0) {
            return List.of();
        }
        int first = raw[0] & 0xff;
        boolean array = first >= 0x90 && first <= 0x9f || first == 0xdc || first == 0xdd;
        if (!array) {
            // A record written before the change (text joined with ","): read it as it was written.
            return Arrays.asList(JqContext.text(raw).split(","));
        }
        return Msgpack.decode(raw).asArrayValue().list().stream().map(v -> v.asStringValue().asString()).toList();
    }

    private static long num(Map<String, byte[]> f, String field) {
        byte[] v = f.get(field);
        return v == null ? 0 : Long.parseLong(JqContext.text(v));
    }
}
