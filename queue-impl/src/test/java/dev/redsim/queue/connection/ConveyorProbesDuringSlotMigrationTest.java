package dev.redsim.queue.connection;

import dev.redsim.queue.conveyor.Conveyor;
import dev.redsim.queue.conveyor.ConveyorClient;
import dev.redsim.queue.conveyor.ConveyorKeys;
import dev.redsim.queue.conveyor.ConveyorOptions;
import dev.redsim.queue.conveyor.Deadline;
import dev.redsim.queue.conveyor.Job;
import dev.redsim.queue.conveyor.Lease;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Conveyor's lease recovery, scheduler, claim and the end of a parent on the master of a migrating slot (issue 19, decisions 0023 and 0041), on
 * the simulated and the real 3-master cluster. The racing run (QueuesDuringSlotMigrationTest) never has a lease
 * expire or a job fall due while the slot moves, so it cannot tell whether these scripts probe their keys; here the
 * slot is held half way: every key the script declares is still on the source (so the cluster lets it run there), and
 * the job's queue has moved to the target. Both scripts write before they push to the queue (ZREM of the lease or the
 * scheduled entry), and a migrating master refuses a script's access to a key it does not hold wherever the script
 * meets it, keeping what was written: without the probe of the queue (refusal in proto.lua) the job leaves the lease
 * set or `scheduled` and never reaches its queue. With it, nothing is written and the script answers with the refusal,
 * which RedisConnections.transition reads as "migrating" and waits out; once the slot has moved, the same call moves
 * the job. The transitions are run on a plain connection to the source (a client whose slot map is stale), so the
 * refusal itself is seen.
 */
class ConveyorProbesDuringSlotMigrationTest {
    private static final byte[] PAYLOAD = "work".getBytes(StandardCharsets.UTF_8);

    /** A manual clock (the scripts are handed its time), so a lease expires and a job falls due without waiting. */
    private final AtomicLong millis = new AtomicLong(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli());
    private final InstantSource clock = () -> Instant.ofEpochMilli(millis.get());

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void recoveryWritesNothingWhileTheQueueOfAnExpiredLeaseIsOnTheOtherMaster(String which) {
        try (MigratingSlot slot = MigratingSlot.on(which); JedisCluster client = slot.client()) {
            ConveyorKeys keys = new ConveyorKeys("{" + slot.tag() + "}:");
            ConveyorClient conveyor = new ConveyorClient(client, ConveyorOptions.defaults(), keys, clock);
            conveyor.add(Deadline.none(), Job.of("q", PAYLOAD).withUuid("held"), false);
            conveyor.add(Deadline.none(), Job.of("q", PAYLOAD).withUuid("waiting"), false);
            Lease held = conveyor.with(c -> c.claim(Deadline.none(), "q")).orElseThrow();
            assertThat(held.uuid()).isEqualTo("held");
            // the dead-letter list is a declared key: present, so the cluster runs the script on the source
            client.lpush(keys.deadLetters(), "not a job".getBytes(StandardCharsets.UTF_8));
            millis.addAndGet(Duration.ofMinutes(1).toMillis()); // the lease (30 s) has expired

            slot.open();
            slot.migrate(new String(keys.queue("q"), StandardCharsets.UTF_8));
            refusedWritingNothing(slot, keys, "recovery", onSource -> onSource.recoverExpiredLeases(Deadline.none()));

            slot.finish();
            assertThat(conveyor.recoverExpiredLeases(Deadline.none())).as("requeued once the slot moved").isEqualTo(1);
            assertThat(claimAll(conveyor)).containsExactly("waiting", "held");
        }
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void theSchedulerWritesNothingWhileTheQueueOfADueJobIsOnTheOtherMaster(String which) {
        try (MigratingSlot slot = MigratingSlot.on(which); JedisCluster client = slot.client()) {
            ConveyorKeys keys = new ConveyorKeys("{" + slot.tag() + "}:");
            ConveyorClient conveyor = new ConveyorClient(client, ConveyorOptions.defaults(), keys, clock);
            conveyor.add(Deadline.none(), Job.of("q", PAYLOAD).withUuid("waiting"), false);
            conveyor.add(Deadline.none(), Job.of("q", PAYLOAD).withUuid("later")
                    .withRunAt(clock.instant().plusSeconds(10)), false);
            client.lpush(keys.deadLetters(), "not a job".getBytes(StandardCharsets.UTF_8));
            millis.addAndGet(Duration.ofMinutes(1).toMillis()); // "later" is due

            slot.open();
            slot.migrate(new String(keys.queue("q"), StandardCharsets.UTF_8));
            refusedWritingNothing(slot, keys, "the scheduler", onSource -> onSource.runScheduler(Deadline.none()));

            slot.finish();
            assertThat(conveyor.runScheduler(Deadline.none())).as("moved once the slot moved").isEqualTo(1);
            assertThat(claimAll(conveyor)).containsExactly("waiting", "later");
        }
    }

    /**
     * The claim (the racing run proves it only now and then): every key it declares is on the source and nothing has
     * moved, but the job's lease key is new, and a migrating master refuses a missing key; without the claim's
     * migration probe it pops the job, writes its record and is refused at the lease key, and the job is nowhere.
     */
    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void aClaimWritesNothingWhileTheSlotMigrates(String which) {
        try (MigratingSlot slot = MigratingSlot.on(which); JedisCluster client = slot.client()) {
            ConveyorKeys keys = new ConveyorKeys("{" + slot.tag() + "}:");
            ConveyorClient conveyor = new ConveyorClient(client, ConveyorOptions.defaults(), keys, clock);
            conveyor.add(Deadline.none(), Job.of("q", PAYLOAD).withUuid("held"), false);
            conveyor.add(Deadline.none(), Job.of("q", PAYLOAD).withUuid("waiting"), false);
            assertThat(conveyor.with(c -> c.claim(Deadline.none(), "q")).orElseThrow().uuid()).isEqualTo("held");
            client.lpush(keys.deadLetters(), "not a job".getBytes(StandardCharsets.UTF_8));

            slot.open();
            refusedWritingNothing(slot, keys, "the claim", onSource -> onSource.claimMany(Deadline.none(), "q", 2));

            slot.finish();
            assertThat(claimAll(conveyor)).containsExactly("waiting");
        }
    }

    /**
     * The end of a parent's run (finish.lua): its lease, record, buffered children, active set and successors are on the
     * source, so every read of the script is served there, but the queue its child is released to has moved. Without
     * the script's migration probe it takes the parent out of the lease set, writes its record and is refused at the
     * queue: the parent is neither running nor waiting, and its child is nowhere.
     */
    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void theEndOfAParentWritesNothingWhileTheQueueOfItsChildIsOnTheOtherMaster(String which) {
        try (MigratingSlot slot = MigratingSlot.on(which); JedisCluster client = slot.client()) {
            ConveyorKeys keys = new ConveyorKeys("{" + slot.tag() + "}:");
            ConveyorClient conveyor = new ConveyorClient(client, ConveyorOptions.defaults(), keys, clock);
            conveyor.add(Deadline.none(), Job.of("q", PAYLOAD).withUuid("parent"), false);
            Lease parent = conveyor.with(c -> c.claim(Deadline.none(), "q")).orElseThrow();
            conveyor.add(Deadline.none(), Job.of("q", PAYLOAD).withUuid("buffered").withParent("parent"), false);
            // said dead by its caller: placed at once, so the parent's active set exists too
            conveyor.add(Deadline.none(), Job.of("q", PAYLOAD).withUuid("early").withParent("parent"), true);
            // and a successor: complete.lua reads its three keys, finds them all, and hands over to finish.lua
            conveyor.add(Deadline.none(), Job.of("q", PAYLOAD).withUuid("next").withPredecessor("parent"), false);
            // The sets finish.lua declares exist too (else the cluster refuses the whole call for a missing declared
            // key, probe or not): a job done, a parent waiting for its child, an entry a dead completer left.
            conveyor.add(Deadline.none(), Job.of("other", PAYLOAD).withUuid("done"), false);
            conveyor.add(Deadline.none(), Job.of("other", PAYLOAD).withUuid("waits"), false);
            conveyor.with(c -> {
                c.complete(Deadline.none(), c.claim(Deadline.none(), "other").orElseThrow());
                Lease waits = c.claim(Deadline.none(), "other").orElseThrow();
                c.add(Deadline.none(), Job.of("other", PAYLOAD).withUuid("its-child").withParent("waits"), false);
                c.complete(Deadline.none(), waits);
                return null;
            });
            client.sadd(keys.settling(), "stranded".getBytes(StandardCharsets.UTF_8));

            slot.open();
            slot.migrate(new String(keys.queue("q"), StandardCharsets.UTF_8));
            refusedWritingNothing(slot, keys, "the parent's end",
                    onSource -> onSource.complete(Deadline.none(), parent));

            slot.finish();
            conveyor.with(c -> {
                c.complete(Deadline.none(), parent);
                return null;
            });
            assertThat(claimAll(conveyor)).containsExactly("early", "buffered");
        }
    }

    /** A transition run on the migrating master. */
    private interface Transition {
        void run(Conveyor conveyor) throws Exception;
    }

    /**
     * Runs {@code transition} on the migrating (source) master and checks that it was refused as a migration (which
     * RedisConnections waits out and retries) with every key of the slot, on both masters, as it was.
     */
    private void refusedWritingNothing(MigratingSlot slot, ConveyorKeys keys, String what, Transition transition) {
        Map<String, String> before = slot.snapshot();
        Throwable refused;
        try (Jedis source = slot.source()) {
            Conveyor onSource = new Conveyor(source, clock, ConveyorOptions.defaults(), keys);
            refused = catchThrowable(() -> transition.run(onSource));
        }
        assertThat(slot.snapshot()).as("keys of the slot on both masters after " + what + " was refused")
                .isEqualTo(before);
        assertThat(refused).as(what + " on the migrating master").isNotNull();
        assertThat(SlotMoves.classify(refused)).as("how RedisConnections reads " + refused)
                .isEqualTo(SlotMoves.Refusal.MIGRATING);
    }

    /** Claims every job of queue q, in order, through the client (on the slot's new master). */
    private static List<String> claimAll(ConveyorClient conveyor) {
        List<String> uuids = new ArrayList<>();
        while (true) {
            var lease = conveyor.with(c -> c.claim(Deadline.none(), "q"));
            if (lease.isEmpty()) {
                return uuids;
            }
            uuids.add(lease.get().uuid());
        }
    }
}
