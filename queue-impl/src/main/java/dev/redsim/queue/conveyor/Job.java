package dev.redsim.queue.conveyor;

import java.time.Instant;
import java.util.Objects;

/**
 * A Conveyor job (jobs.proto). Immutable: every transition makes a new value, so what a worker holds is
 * exactly what it read. Empty strings mean "absent", as proto3 strings do; null instants mean "not set".
 */
public record Job(String uuid, String type, String queue, byte[] payload, Instant runAt, String parentUuid,
                  String predecessorUuid, Instant startedAt, int retry, int maxRetries, String lastFailure,
                  JobStatus status) {

    public Job {
        uuid = Objects.requireNonNullElse(uuid, "");
        type = Objects.requireNonNullElse(type, "");
        queue = Objects.requireNonNullElse(queue, "");
        payload = payload == null ? new byte[0] : payload;
        parentUuid = Objects.requireNonNullElse(parentUuid, "");
        predecessorUuid = Objects.requireNonNullElse(predecessorUuid, "");
        lastFailure = Objects.requireNonNullElse(lastFailure, "");
        status = Objects.requireNonNullElse(status, JobStatus.ENQUEUED);
    }

    /** A fresh job for a queue; the other fields through the with* methods. */
    public static Job of(String queue, byte[] payload) {
        return new Job("", "", queue, payload, null, "", "", null, 0, 0, "", JobStatus.ENQUEUED);
    }

    public boolean hasParent() {
        return !parentUuid.isEmpty();
    }

    public boolean hasPredecessor() {
        return !predecessorUuid.isEmpty();
    }

    public Job withUuid(String v) {
        return new Job(v, type, queue, payload, runAt, parentUuid, predecessorUuid, startedAt, retry, maxRetries, lastFailure, status);
    }

    public Job withType(String v) {
        return new Job(uuid, v, queue, payload, runAt, parentUuid, predecessorUuid, startedAt, retry, maxRetries, lastFailure, status);
    }

    public Job withRunAt(Instant v) {
        return new Job(uuid, type, queue, payload, v, parentUuid, predecessorUuid, startedAt, retry, maxRetries, lastFailure, status);
    }

    public Job withParent(String v) {
        return new Job(uuid, type, queue, payload, runAt, v, predecessorUuid, startedAt, retry, maxRetries, lastFailure, status);
    }

    public Job withPredecessor(String v) {
        return new Job(uuid, type, queue, payload, runAt, parentUuid, v, startedAt, retry, maxRetries, lastFailure, status);
    }

    public Job withMaxRetries(int v) {
        return new Job(uuid, type, queue, payload, runAt, parentUuid, predecessorUuid, startedAt, retry, v, lastFailure, status);
    }

    Job running(Instant now) {
        return new Job(uuid, type, queue, payload, runAt, parentUuid, predecessorUuid, now, retry, maxRetries, lastFailure, JobStatus.RUNNING);
    }

    Job finished(JobStatus outcome, String failure) {
        return new Job(uuid, type, queue, payload, runAt, parentUuid, predecessorUuid, startedAt, retry, maxRetries, failure, outcome);
    }

    Job retried(Instant due, String failure) {
        return new Job(uuid, type, queue, payload, due, parentUuid, predecessorUuid, null, retry + 1, maxRetries, failure, JobStatus.ENQUEUED);
    }

    Job requeued() {
        return new Job(uuid, type, queue, payload, runAt, parentUuid, predecessorUuid, null, retry, maxRetries, lastFailure, JobStatus.ENQUEUED);
    }
}
