package dev.redsim.queue.conveyor;

import dev.redsim.queue.conveyor.wire.ProtoReader;
import dev.redsim.queue.conveyor.wire.ProtoWriter;

import java.time.Instant;

/** Job <-> bytes in the protobuf wire format of resources/conveyor/jobs.proto (field numbers below). */
public final class JobWire {
    private static final int UUID = 1, TYPE = 2, QUEUE = 3, PAYLOAD = 4, RUN_AT = 5, PARENT = 6, PREDECESSOR = 7,
            STARTED_AT = 8, RETRY = 9, MAX_RETRIES = 10, LAST_FAILURE = 11, STATUS = 12;
    private static final int TS_SECONDS = 1, TS_NANOS = 2;

    private JobWire() {
    }

    public static byte[] encode(Job job) {
        ProtoWriter w = new ProtoWriter();
        w.string(UUID, job.uuid());
        w.string(TYPE, job.type());
        w.string(QUEUE, job.queue());
        w.bytes(PAYLOAD, job.payload());
        if (job.runAt() != null) {
            w.message(RUN_AT, timestamp(job.runAt()));
        }
        w.string(PARENT, job.parentUuid());
        w.string(PREDECESSOR, job.predecessorUuid());
        if (job.startedAt() != null) {
            w.message(STARTED_AT, timestamp(job.startedAt()));
        }
        w.int32(RETRY, job.retry());
        w.int32(MAX_RETRIES, job.maxRetries());
        w.string(LAST_FAILURE, job.lastFailure());
        w.int32(STATUS, job.status().wire());
        return w.toBytes();
    }

    public static Job decode(byte[] bytes) {
        try {
            return read(new ProtoReader(bytes));
        } catch (IllegalArgumentException e) {
            throw new MarshalException(e.getMessage());
        }
    }

    private static Job read(ProtoReader r) {
        String uuid = "", type = "", queue = "", parent = "", predecessor = "", lastFailure = "";
        byte[] payload = new byte[0];
        Instant runAt = null, startedAt = null;
        int retry = 0, maxRetries = 0;
        JobStatus status = JobStatus.ENQUEUED;
        for (int field = r.nextField(); field != 0; field = r.nextField()) {
            switch (field) {
                case UUID -> uuid = lengthDelimited(r).string();
                case TYPE -> type = lengthDelimited(r).string();
                case QUEUE -> queue = lengthDelimited(r).string();
                case PAYLOAD -> payload = lengthDelimited(r).bytes();
                case RUN_AT -> runAt = instant(lengthDelimited(r).message());
                case PARENT -> parent = lengthDelimited(r).string();
                case PREDECESSOR -> predecessor = lengthDelimited(r).string();
                case STARTED_AT -> startedAt = instant(lengthDelimited(r).message());
                case RETRY -> retry = (int) varint(r);
                case MAX_RETRIES -> maxRetries = (int) varint(r);
                case LAST_FAILURE -> lastFailure = lengthDelimited(r).string();
                case STATUS -> status = JobStatus.fromWire((int) varint(r));
                default -> r.skip();
            }
        }
        return new Job(uuid, type, queue, payload, runAt, parent, predecessor, startedAt, retry, maxRetries,
                lastFailure, status);
    }

    private static ProtoReader lengthDelimited(ProtoReader r) {
        r.expect(2);
        return r;
    }

    private static long varint(ProtoReader r) {
        r.expect(0);
        return r.varint();
    }

    /** google.protobuf.Timestamp: seconds since the epoch and a non-negative nanosecond part. */
    private static byte[] timestamp(Instant t) {
        ProtoWriter w = new ProtoWriter();
        w.int64(TS_SECONDS, t.getEpochSecond());
        w.int32(TS_NANOS, t.getNano());
        return w.toBytes();
    }

    private static Instant instant(ProtoReader r) {
        long seconds = 0;
        int nanos = 0;
        for (int field = r.nextField(); field != 0; field = r.nextField()) {
            switch (field) {
                case TS_SECONDS -> seconds = varint(r);
                case TS_NANOS -> nanos = (int) varint(r);
                default -> r.skip();
            }
        }
        return Instant.ofEpochSecond(seconds, nanos);
    }
}
