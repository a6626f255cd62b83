package dev.redsim.queue.jq;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.queue.thoonk.ListenedConnection;
import org.msgpack.value.ValueFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Claims finish while producers enqueue: here a producer enqueues a job right before every EXEC a claimer sends
 * (the worst interleaving a steady stream of enqueues can produce). Every claim must commit at its first
 * attempt; a claim that watched the whole ready set was aborted by each of those enqueues and gave up (the master
 * answered that with HTTP 500).
 */
class JqClaimLivenessTest {
    private static final long START = 1_700_000_000_000L;

    @AcrossTargets
    void claimsCommitWhileAJobIsEnqueuedBeforeEveryExec(RedisTarget target) {
        ManualClock clock = new ManualClock(START);
        AtomicInteger execs = new AtomicInteger();
        try (Jedis producerConnection = new Jedis(target.host(), target.port())) {
            producerConnection.flushAll();
            JobQueue producer = new JobQueue(producerConnection, JqKeys.standard(), clock, JqOptions.defaults());
            JobRequest job = new JobRequest("steady", Msgpack.encode(ValueFactory.newString("x")), 0, 0, false,
                    30_000);
            ListenedConnection listened = new ListenedConnection(new HostAndPort(target.host(), target.port()),
                    (sent, command) -> {
                        if (command.equalsIgnoreCase("EXEC")) {
                            if (execs.incrementAndGet() > 5_000) {
                                throw new IllegalStateException("5,000 claim attempts for 20 claims");
                            }
                            producer.enqueue(job);
                        }
                    });
            try (Jedis claimerConnection = new Jedis(listened)) {
                JobQueue claimer = new JobQueue(claimerConnection, JqKeys.standard(), clock, JqOptions.defaults());
                producer.enqueue(job);
                for (int i = 0; i < 20; i++) {
                    assertThat(claimer.claim("w")).as("claim %d", i).isPresent();
                }
                assertThat(execs.get()).as("EXECs for 20 claims: one each").isEqualTo(20);
            }
        }
    }
}
