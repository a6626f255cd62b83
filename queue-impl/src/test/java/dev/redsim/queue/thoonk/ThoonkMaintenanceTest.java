package dev.redsim.queue.thoonk;

import dev.redsim.conformance.contracts.thoonk.ManualClock;
import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.queue.script.Transitions;
import redis.clients.jedis.Jedis;

import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The retry limit and the stats feed of maintenance, with time from an injected clock. */
class ThoonkMaintenanceTest {
    @AcrossTargets
    void aJobThatKeepsTimingOutStallsAfterTheLimitAndStatsArePublished(RedisTarget target) {
        String name = "jobs-" + UUID.randomUUID();
        long[] now = {1_000_000};
        TickingClock clock = new TickingClock(now);
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            Job job = new Job(jedis, name, clock);
            JobMaintenance maintenance = new JobMaintenance(jedis, name, clock,
                new MaintenanceSettings(Duration.ofSeconds(30), 2), name + ".stats");
            String id = job.put("flaky");
            for (int attempt = 1; attempt <= 3; attempt++) {
                assertThat(job.get(Duration.ofSeconds(1)).id()).isEqualTo(id);
                now[0] += 30_001;
                MaintenanceReport report = maintenance.pass();
                assertThat(report.cancelled()).isEqualTo(attempt < 3 ? 1 : 0);
                assertThat(report.stalledNow()).isEqualTo(attempt < 3 ? 0 : 1);
            }
            assertThat(jedis.sismember(job.keys().stalled(), id)).isTrue();
            assertThat(job.failures(id)).isZero();
            assertThat(new Feed(jedis, name + ".stats", clock).item("latest")).contains("\"stalledNow\":1");
            assertThat(job.retry(id)).isTrue();
            assertThat(job.get(Duration.ofSeconds(1)).id()).isEqualTo(id);
            jedis.del(job.keys().all());
            jedis.del(new ThoonkKeys(name + ".stats").all());
        }
    }

    /**
     * A worker slow between its pop and its claim: maintenance takes the id back (unaccounted for longer than the
     * claim timeout) and another worker pops and claims it, all before the slow worker's claim. The slow worker
     * must give the id up, not claim it too (before, both held it and the job ran twice). The WATCH/MULTI form
     * (Transitions.OPTIMISTIC); scripted, a get that finds a job pops and claims it in one step, and the claim after
     * a BRPOP runs the same check (get_one.lua).
     */
    @AcrossTargets
    void aWorkerSlowBetweenPopAndClaimGivesUpAnIdClaimedMeanwhile(RedisTarget target) {
        String name = "slow-" + UUID.randomUUID();
        long[] now = {1_000_000};
        TickingClock clock = new TickingClock(now);
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            Job fast = new Job(jedis, name, clock);
            JobMaintenance maintenance = new JobMaintenance(jedis, name, clock,
                new MaintenanceSettings(Duration.ofSeconds(30), 3), null);
            String id = fast.put("once");
            java.util.List<Claim> fastClaims = new java.util.ArrayList<>();
            boolean[] interleaved = {false};
            ListenedConnection slowConnection = new ListenedConnection(
                new redis.clients.jedis.HostAndPort(target.host(), target.port()), (sent, command) -> {
                    if (command.equalsIgnoreCase("WATCH") && !interleaved[0]) {
                        interleaved[0] = true; // popped, about to claim: the world moves on meanwhile
                        maintenance.pass();
                        now[0] += 30_001;
                        assertThat(maintenance.pass().requeued()).as("taken back by maintenance").isEqualTo(1);
                        fastClaims.add(fast.get(Duration.ZERO));
                    }
                });
            try (Jedis slowJedis = new Jedis(slowConnection)) {
                Claim slow = new Job(slowJedis, name, clock, dev.redsim.queue.script.Transitions.OPTIMISTIC)
                    .get(Duration.ZERO);
                assertThat(interleaved[0]).isTrue();
                assertThat(fastClaims).hasSize(1).allMatch(c -> c != null && c.id().equals(id));
                assertThat(slow).as("the slow worker's claim of an id claimed meanwhile").isNull();
            }
            assertThat(jedis.zrange(fast.keys().claimed(), 0, -1)).containsExactly(id);
            jedis.del(fast.keys().all());
        }
    }

    /**
     * The requeue re-checks: a pass finds an id lost for longer than the claim timeout, and the slow worker that popped
     * it claims it after the pass read the feed and before the requeue writes. The requeue must leave the id alone
     * (else it is both claimed and waiting in feed.ids, and runs twice). Scripted, the claim lands just before the
     * requeue script is sent (requeue.lua must check again); WATCH/MULTI, just before its WATCH. Fails when the script
     * trusts the pass and only LPUSHes.
     */
    @AcrossTargets
    void aLostIdClaimedBetweenThePassAndItsRequeueIsNotRequeued(RedisTarget target) {
        for (Transitions transitions : Transitions.values()) {
            String name = "requeue-race-" + UUID.randomUUID();
            ManualClock time = new ManualClock(1_000_000);
            String requeueCommand = transitions == Transitions.SCRIPTS ? "EVALSHA" : "WATCH";
            try (Jedis jedis = new Jedis(target.host(), target.port())) {
                Job slowWorker = new Job(jedis, name, time, transitions);
                String id = slowWorker.put("once");
                assertThat(jedis.rpop(slowWorker.keys().ids())).as("the slow worker's BRPOP").isEqualTo(id);
                boolean[] armed = {false};
                java.util.List<Claim> slowClaims = new java.util.ArrayList<>();
                ListenedConnection maintenanceConnection = new ListenedConnection(
                    new redis.clients.jedis.HostAndPort(target.host(), target.port()), (sent, command) -> {
                        if (armed[0] && (command.equalsIgnoreCase(requeueCommand) || command.equalsIgnoreCase("EVAL"))) {
                            armed[0] = false; // the pass has read the feed; its requeue is about to be sent
                            slowClaims.add(slowWorker.claimPopped(id));
                        }
                    });
                try (Jedis maintenanceJedis = new Jedis(maintenanceConnection)) {
                    JobMaintenance maintenance = new JobMaintenance(maintenanceJedis, name, time,
                        new MaintenanceSettings(Duration.ofSeconds(30), 3), null, new java.util.HashMap<>(),
                        transitions);
                    assertThat(maintenance.pass().unaccounted()).as("first sight").isEqualTo(1);
                    time.advance(30_001);
                    armed[0] = true;
                    MaintenanceReport report = maintenance.pass();
                    assertThat(slowClaims).as(transitions + ": the slow worker claimed before the requeue")
                        .hasSize(1).allMatch(c -> c != null && c.id().equals(id));
                    assertThat(report.unaccounted()).as("the pass saw the id lost").isEqualTo(1);
                    assertThat(report.requeued()).as(transitions + ": requeued").isZero();
                }
                assertThat(jedis.lrange(slowWorker.keys().ids(), 0, -1)).as(transitions + ": waiting").isEmpty();
                assertThat(jedis.zrange(slowWorker.keys().claimed(), 0, -1)).containsExactly(id);
                jedis.del(slowWorker.keys().all());
            }
        }
    }
}
