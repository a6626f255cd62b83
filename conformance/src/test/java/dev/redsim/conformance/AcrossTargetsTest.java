package dev.redsim.conformance;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** One test body, run on each selected target by {@link AcrossTargets}. */
class AcrossTargetsTest {
    private static final Set<String> SEEN = new HashSet<>();

    @AcrossTargets
    void runsOncePerTarget(RedisTarget target) {
        try (RespClient client = new RespClient(target.host(), target.port())) {
            client.call("DEL", "across:counter");
            assertThat(client.call("INCR", "across:counter").asLong()).isEqualTo(1);
            assertThat(client.call("INCRBY", "across:counter", "41").asLong()).isEqualTo(42);
            client.call("DEL", "across:counter");
        }
        assertThat(SEEN.add(target.name())).as("each target once").isTrue();
    }
}
