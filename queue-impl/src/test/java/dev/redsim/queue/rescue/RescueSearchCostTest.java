package dev.redsim.queue.rescue;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What one Search costs when many broadcast tasks exist that this worker already had: a bounded few commands and
 * round trips (flushes of the client's connection: each one waits for Redis), whatever their number. Before the
 * worker's cursor, a Search asked whether each broadcast task had been delivered (pipelined, but one command each).
 */
class RescueSearchCostTest {
    private static final int BROADCASTS = 300;

    /** A connection that counts its commands and flushes: Jedis flushes once per command, a pipeline once per sync. */
    private static final class CountingConnection extends Connection {
        int flushes;
        int commands;

        @Override
        public void sendCommand(redis.clients.jedis.CommandArguments args) {
            commands++;
            super.sendCommand(args);
        }

        CountingConnection(HostAndPort address) {
            super(address);
        }

        @Override
        public void flush() {
            flushes++;
            super.flush();
        }
    }

    @AcrossTargets
    void aSearchPastManyDeliveredBroadcastsTakesFewRoundTrips(RedisTarget target) {
        String queue = "cost-" + UUID.randomUUID();
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        CountingConnection counted = new CountingConnection(new HostAndPort(target.host(), target.port()));
        try (Jedis producerConnection = new Jedis(target.host(), target.port());
             Jedis workerConnection = new Jedis(counted)) {
            RescueEngine producer = new RescueEngine(producerConnection, clock, RescueOptions.of(queue, "p"));
            RescueEngine worker = new RescueEngine(workerConnection, clock, RescueOptions.of(queue, "w"));
            for (int i = 0; i < BROADCASTS; i++) {
                producer.create(Task.withMeta(Map.of("x.api.io/object", "b" + i))
                    .with(Task.Section.NODE, Map.of(Labels.METHOD, Labels.ALL)));
            }
            for (int i = 0; i < BROADCASTS; i++) {
                assertThat(worker.search()).as("broadcast %d", i).isPresent();
            }
            int before = counted.flushes;
            int commandsBefore = counted.commands;
            assertThat(worker.search()).as("nothing left for w").isEmpty();
            int roundTrips = counted.flushes - before;
            int commands = counted.commands - commandsBefore;
            System.out.printf("rescue on %s: %d round trips, %d commands for a search past %d delivered broadcasts%n",
                target.name(), roundTrips, commands, BROADCASTS);
            assertThat(roundTrips).isLessThanOrEqualTo(6);
            assertThat(commands).as("commands, not one per broadcast task").isLessThanOrEqualTo(6);
            producerConnection.del(producerConnection.keys("{rescue:" + queue + "}:*").toArray(new String[0]));
        }
    }
}
