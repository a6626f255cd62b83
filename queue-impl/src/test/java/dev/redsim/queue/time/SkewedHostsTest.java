package dev.redsim.queue.time;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.queue.conveyor.Conveyor;
import dev.redsim.queue.conveyor.ConveyorKeys;
import dev.redsim.queue.conveyor.ConveyorOptions;
import dev.redsim.queue.conveyor.Deadline;
import dev.redsim.queue.jq.JobQueue;
import dev.redsim.queue.jq.JobRequest;
import dev.redsim.queue.jq.JqKeys;
import dev.redsim.queue.jq.JqOptions;
import dev.redsim.queue.rescue.Labels;
import dev.redsim.queue.rescue.RescueEngine;
import dev.redsim.queue.rescue.RescueOptions;
import dev.redsim.queue.rescue.Task;
import dev.redsim.queue.thoonk.Job;
import dev.redsim.queue.thoonk.JobMaintenance;
import dev.redsim.queue.thoonk.MaintenanceSettings;
import org.junit.jupiter.api.AfterEach;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two hosts share one Redis and take their time from Redis's TIME (RedisClock), as the bare APIs of all four
 * contracts do by default: the second host does not see the first one's 20 s lease or timeout as expired, so no
 * early reclaim and no second delivery. What their own wall clocks say (30 s apart, say) cannot enter here: no API
 * reads it. The skew property with clocks that really disagree, and subjects that fail when they read their own
 * clock, is in the conformance suites (RuntimeContract's and JqContract's skewed-hosts cases).
 */
class SkewedHostsTest {
    private static final Duration LEASE = Duration.ofSeconds(20);

    private final List<AutoCloseable> open = new ArrayList<>();

    /** A host's clock for the queues: Redis's TIME, asked on every reading. */
    private Clock hostClock(RedisTarget target) {
        JedisPool pool = new JedisPool(target.host(), target.port());
        open.add(pool);
        return RedisClock.over(pool, Duration.ZERO);
    }

    private Jedis connect(RedisTarget target) {
        Jedis jedis = new Jedis(target.host(), target.port());
        open.add(jedis);
        return jedis;
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    @AcrossTargets
    void jq(RedisTarget target) {
        JqKeys keys = new JqKeys("skew-" + UUID.randomUUID() + ":");
        JobQueue a = new JobQueue(connect(target), keys, hostClock(target), JqOptions.defaults());
        JobQueue b = new JobQueue(connect(target), keys, hostClock(target), JqOptions.defaults());
        a.enqueue(new JobRequest("n", new byte[] {(byte) 0xa1, 'x'}, 0, 3, false, LEASE.toMillis()));
        assertThat(a.claim("a")).isPresent();
        assertThat(b.expireOverdue()).as("timed out by the host running ahead").isZero();
        assertThat(b.claim("b")).as("delivered twice").isEmpty();
    }

    @AcrossTargets
    void thoonk(RedisTarget target) {
        String feed = "skew-" + UUID.randomUUID();
        Job a = new Job(connect(target), feed, hostClock(target));
        Clock ahead = hostClock(target);
        Jedis bConnection = connect(target);
        Job b = new Job(bConnection, feed, ahead);
        JobMaintenance maintenance = new JobMaintenance(bConnection, feed, ahead, new MaintenanceSettings(LEASE, 3),
            null);
        a.put("work");
        assertThat(a.get(Duration.ofSeconds(1))).isNotNull();
        assertThat(maintenance.pass().cancelled()).as("taken back by the host running ahead").isZero();
        assertThat(b.get(Duration.ZERO)).as("delivered twice").isNull();
    }

    @AcrossTargets
    void conveyor(RedisTarget target) {
        ConveyorKeys keys = new ConveyorKeys("{skew-" + UUID.randomUUID() + "}:");
        ConveyorOptions options = ConveyorOptions.defaults().withLease(LEASE);
        Conveyor a = new Conveyor(connect(target), hostClock(target), options, keys);
        Conveyor b = new Conveyor(connect(target), hostClock(target), options, keys);
        a.add(Deadline.none(), dev.redsim.queue.conveyor.Job.of("q", null), false);
        assertThat(a.claim(Deadline.none(), "q")).isPresent();
        assertThat(b.recoverExpiredLeases(Deadline.none())).as("recovered by the host running ahead").isZero();
        assertThat(b.claim(Deadline.none(), "q")).as("delivered twice").isEmpty();
    }

    @AcrossTargets
    void rescue(RedisTarget target) {
        String queue = "skew-" + UUID.randomUUID();
        RescueEngine a = new RescueEngine(connect(target), hostClock(target),
            RescueOptions.of(queue, "a").withLease(LEASE));
        RescueEngine b = new RescueEngine(connect(target), hostClock(target),
            RescueOptions.of(queue, "b").withLease(LEASE));
        a.create(Task.withMeta(Map.of("x.api.io/object", "1")).with(Task.Section.NODE, Map.of(Labels.METHOD, "any")));
        assertThat(a.search()).isPresent();
        b.expire();
        assertThat(b.search()).as("delivered twice").isEmpty();
    }
}
