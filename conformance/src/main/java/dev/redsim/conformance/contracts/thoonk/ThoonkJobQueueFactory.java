package dev.redsim.conformance.contracts.thoonk;

import dev.redsim.conformance.target.RedisTarget;

import java.time.Clock;

/** Opens clients of the implementation under test; each has its own connection and calls the hook per command. */
@FunctionalInterface
public interface ThoonkJobQueueFactory {
    ThoonkJobQueue open(RedisTarget target, String feed, Clock clock, JobQueueSettings settings, CommandHook hook);
}
