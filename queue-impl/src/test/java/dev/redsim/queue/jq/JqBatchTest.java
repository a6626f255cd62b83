package dev.redsim.queue.jq;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.queue.jq.client.JobFailedException;
import dev.redsim.queue.jq.client.JqClientException;
import dev.redsim.queue.jq.client.JqPusher;
import dev.redsim.queue.jq.client.JqWorker;
import dev.redsim.queue.jq.master.JqMaster;
import dev.redsim.queue.script.Transitions;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;
import redis.clients.jedis.Jedis;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The batch forms: push many, take many, report many over HTTP (the master's batch endpoints), and the scripted
 * transitions writing exactly what the optimistic ones write (other clients of the keys see no difference). On the
 * simulator and on a real redis-server.
 */
class JqBatchTest {
    @AcrossTargets
    void pushManyTakeManyReportManyOverHttp(RedisTarget target) {
        try (JqMaster master = JqMasterTest.startOn(target); JqPusher pusher = new JqPusher(master.uri())) {
            List<JqPusher.Job> jobs = new ArrayList<>();
            for (int i = 0; i < 7; i++) {
                jobs.add(JqPusher.job("square", ValueFactory.newInteger(i)).keepResult(true).priority(i % 2));
            }
            List<Long> ids = pusher.enqueueMany(jobs);
            assertThat(ids).hasSize(7).isSorted().doesNotHaveDuplicates();
            List<Integer> ran = new ArrayList<>();
            JqWorker worker = new JqWorker(master.uri(), "w1", (name, argument) -> {
                int n = argument.asIntegerValue().toInt();
                ran.add(n);
                if (n == 3) {
                    throw new JobFailedException("three", false, null);
                }
                return ValueFactory.newInteger(n * n);
            });
            assertThat(worker.runBatch(5, 0)).isEqualTo(5);
            assertThat(worker.runBatch(5, 0)).isEqualTo(2);
            assertThat(worker.runBatch(5, 0)).as("nothing left").isZero();
            // Priority 0 (even arguments) first, in enqueue order, then priority 1.
            assertThat(ran).containsExactly(0, 2, 4, 6, 1, 3, 5);
            for (int i = 0; i < 7; i++) {
                Map<String, Value> outcome = Msgpack.fields(pusher.takeResult(ids.get(i)).orElseThrow());
                if (i == 3) {
                    assertThat(outcome.get("type").asStringValue().asString()).isEqualTo("failure");
                    assertThat(pusher.state(ids.get(i))).hasValue("failed");
                } else {
                    assertThat(outcome.get("result").asIntegerValue().toInt()).isEqualTo(i * i);
                    assertThat(pusher.state(ids.get(i))).hasValue("succeeded");
                }
            }
        }
    }

    @AcrossTargets
    void aBatchWithOneBadJobEnqueuesNothingAndStaleReportsChangeNothing(RedisTarget target) {
        try (JqMaster master = JqMasterTest.startOn(target); JqPusher pusher = new JqPusher(master.uri())) {
            List<JqPusher.Job> jobs = List.of(JqPusher.job("ok", ValueFactory.newNil()),
                    JqPusher.job("", ValueFactory.newNil()));
            assertThatThrownBy(() -> pusher.enqueueMany(jobs)).isInstanceOf(JqClientException.class)
                    .hasMessageContaining("400");
            assertThatThrownBy(() -> pusher.enqueueMany(List.of())).hasMessageContaining("400");
            long id = pusher.enqueueMany(List.of(JqPusher.job("ok", ValueFactory.newNil()))).get(0);
            assertThat(id).as("the rejected batch took no id").isEqualTo(1);
            try (Jedis jedis = new Jedis(target.host(), target.port())) {
                JobQueue queue = new JobQueue(jedis, InstantSource.system());
                Assignment a = queue.claimMany("w", 10).get(0);
                byte[] success = Msgpack.encode(Msgpack.map("type", "success", "finished_at", "2026-01-01T00:00:00Z",
                        "result", 1));
                List<ReportStatus> statuses = queue.reportMany(List.of(
                        new AttemptReport(a.id(), a.attempt() + 1, new Outcome.Success(success)),
                        new AttemptReport(a.id(), a.attempt(), new Outcome.Success(success)),
                        new AttemptReport(a.id(), a.attempt(), new Outcome.Success(success))));
                assertThat(statuses).containsExactly(ReportStatus.STALE, ReportStatus.ACCEPTED, ReportStatus.STALE);
                assertThat(queue.job(a.id()).orElseThrow().state()).isEqualTo(JobState.SUCCEEDED);
            }
        }
    }

    /**
     * The same history (enqueue, claim, a retried failure, a due retry, a final failure, a success) by the scripts
     * and by the WATCH/MULTI forms, at the same clock readings: every key byte for byte the same, the MessagePack
     * failure log included (the script writes it with its own encoder).
     */
    @AcrossTargets
    void scriptsWriteWhatTheOptimisticFormsWrite(RedisTarget target) {
        Map<String, String> scripted = history(target, Transitions.SCRIPTS);
        Map<String, String> optimistic = history(target, Transitions.OPTIMISTIC);
        assertThat(scripted).isEqualTo(optimistic).containsKey("jq:failures");
    }

    private static Map<String, String> history(RedisTarget target, Transitions transitions) {
        try (RespClient admin = new RespClient(target.host(), target.port())) {
            admin.call("FLUSHALL");
        }
        long[] now = {1_700_000_000_000L};
        InstantSource clock = () -> Instant.ofEpochMilli(now[0]);
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            JobQueue queue = new JobQueue(jedis, JqKeys.standard(), clock,
                    JqOptions.defaults().withTransitions(transitions));
            String longMessage = "m".repeat(300);
            queue.enqueueMany(List.of(new JobRequest("a", Msgpack.encode(ValueFactory.newString("x")), 3, 1, true,
                    5_000), new JobRequest("b", new byte[] {(byte) 0xc0}, -2, 0, false, 70_000)));
            now[0] += 10;
            List<Assignment> first = queue.claimMany("w1", 2);
            assertThat(first).extracting(Assignment::name).containsExactly("b", "a");
            now[0] += 1_000;
            queue.reportMany(List.of(
                    new AttemptReport(first.get(1).id(), 1, failure(true, longMessage)),
                    new AttemptReport(first.get(0).id(), 1, new Outcome.Success(
                            Msgpack.encode(Msgpack.map("type", "success", "result", 1))))));
            now[0] += 5_000; // past the 1 s backoff: the retry is promoted by the next claim
            Assignment retry = queue.claimMany("w2", 5).get(0);
            assertThat(retry.attempt()).isEqualTo(2);
            now[0] += 3;
            queue.reportMany(List.of(new AttemptReport(retry.id(), 2, failure(true, null))));
            Map<String, String> keys = new java.util.TreeMap<>();
            for (String key : jedis.keys("*")) {
                String type = jedis.type(key);
                byte[] k = key.getBytes(StandardCharsets.UTF_8);
                String dump = switch (type) {
                    case "hash" -> new java.util.TreeMap<>(jedis.hgetAll(key)).toString();
                    case "zset" -> jedis.zrangeWithScores(key, 0, -1).toString();
                    case "set" -> new java.util.TreeSet<>(jedis.smembers(key)).toString();
                    case "list" -> jedis.lrange(k, 0, -1).stream().map(java.util.HexFormat.of()::formatHex).toList()
                            .toString();
                    default -> java.util.HexFormat.of().formatHex(jedis.get(k));
                };
                keys.put(key, dump);
            }
            return keys;
        }
    }

    private static Outcome failure(boolean retry, String message) {
        byte[] encoded = Msgpack.encode(Msgpack.map("type", "failure", "reason", "other", "should_retry", retry,
                "message", message));
        return new Outcome.Failure(encoded, "other", retry, message);
    }
}
