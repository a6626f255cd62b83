package dev.redsim.queue.jq.client;

import org.msgpack.value.Value;

/** A worker's code: run a job, return its result value; throw {@link JobFailedException} to fail it. */
@FunctionalInterface
public interface JobHandler {
    Value run(String name, Value argument) throws Exception;
}
