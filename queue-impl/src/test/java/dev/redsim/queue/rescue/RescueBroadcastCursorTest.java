package dev.redsim.queue.rescue;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.queue.thoonk.ListenedConnection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worker's broadcast cursor stands for every "all" task up to it, which holds only if such tasks become visible in
 * id order. Here one creator has taken its id and is about to EXEC when another creates an "all" task (a higher id)
 * and a worker receives it, moving its cursor past the first creator's id. The first creator's EXEC must then start
 * over with a new id (it watched the broadcast mark), so the worker still receives its task. Only the optimistic form
 * (Transitions.OPTIMISTIC) has such a window: a scripted create takes its id and stores the task in one step.
 */
class RescueBroadcastCursorTest {
    private static Task broadcast(String name) {
        return Task.withMeta(Map.of("x.api.io/object", name)).with(Task.Section.NODE, Map.of(Labels.METHOD, Labels.ALL));
    }

    @AcrossTargets
    void anAllTaskCommittedAfterAHigherOneIsStillDelivered(RedisTarget target) {
        String queue = "cursor-" + UUID.randomUUID();
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        try (Jedis other = new Jedis(target.host(), target.port());
             Jedis workerConnection = new Jedis(target.host(), target.port())) {
            RescueEngine otherCreator = new RescueEngine(other, clock, RescueOptions.of(queue, "b"));
            RescueEngine worker = new RescueEngine(workerConnection, clock, RescueOptions.of(queue, "w"));
            List<String> received = new ArrayList<>();
            AtomicBoolean interleaved = new AtomicBoolean();
            ListenedConnection slow = new ListenedConnection(new HostAndPort(target.host(), target.port()),
                (sent, command) -> {
                    if (command.equalsIgnoreCase("EXEC") && interleaved.compareAndSet(false, true)) {
                        otherCreator.create(broadcast("second"));
                        worker.search().ifPresent(t -> received.add(t.meta().get("x.api.io/object")));
                    }
                });
            try (Jedis slowConnection = new Jedis(slow)) {
                RescueEngine first = new RescueEngine(slowConnection, clock,
                        RescueOptions.of(queue, "a").withTransitions(dev.redsim.queue.script.Transitions.OPTIMISTIC));
                Optional<Task> created = first.create(broadcast("first"));
                assertThat(created).isPresent();
            }
            for (Optional<Task> t = worker.search(); t.isPresent(); t = worker.search()) {
                received.add(t.get().meta().get("x.api.io/object"));
            }
            assertThat(interleaved).isTrue();
            assertThat(received).as("both broadcasts, once each").containsExactlyInAnyOrder("second", "first");
            other.del(other.keys("{rescue:" + queue + "}:*").toArray(new String[0]));
        }
    }
}
