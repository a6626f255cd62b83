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
     * The same history by the scripts and by the WATCH/MULTI forms, at the same clock readings: every key byte for
     * byte the same, the MessagePack failure log included (the script writes it with its own encoder), and the same
     * answers. The history: a batch enqueue, constrained claims (a job passed over for a full concurrency limit, an
     * argument matched whatever its integer encoding, one not matched because its value is a string), a retried
     * failure with a 300-byte message, a release, cancels of a running, a finished and an unknown job, a due retry,
     * a final failure, a kept result taken (a cancellation's, with its ISO time written by the script), and a sweep
     * of expired results and old finished records.
     */
    @AcrossTargets
    void scriptsWriteWhatTheOptimisticFormsWrite(RedisTarget target) {
        Map<String, String> scripted = history(target, Transitions.SCRIPTS);
        Map<String, String> optimistic = history(target, Transitions.OPTIMISTIC);
        assertThat(scripted).isEqualTo(optimistic).containsKeys("1 jq:failures", "1 jq:result:1",
                "1 jq:constraint:c1:starts", "2 jq:running");
        assertThat(scripted.get("answers")).contains("claim1=[b, c, c, a]", "ids1=[2, 3, 5, 1]",
                "claim2=[4/1, 5/1, 1/2]", "release=ACCEPTED,STALE", "cancel-finished=Optional[SUCCEEDED/false]",
                "cancel-unknown=Optional.empty", "take5=Optional[86");
    }

    private static Map<String, String> history(RedisTarget target, Transitions transitions) {
        try (RespClient admin = new RespClient(target.host(), target.port())) {
            admin.call("FLUSHALL");
        }
        long[] now = {1_700_000_000_007L};
        InstantSource clock = () -> Instant.ofEpochMilli(now[0]);
        Map<String, String> keys = new java.util.TreeMap<>();
        List<String> answers = new ArrayList<>();
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            JobQueue queue = new JobQueue(jedis, JqKeys.standard(), clock,
                    JqOptions.defaults().withTransitions(transitions));
            queue.putConstraint(new Constraint("c1", new JobMatcher("c", Map.of("k", ValueFactory.newInteger(1))),
                    2, 60_000, 1));
            queue.putConstraint(new Constraint("c0", JobMatcher.byName("c"), 0, 0, 0));
            String longMessage = "m".repeat(300);
            byte[] kOneInt8 = {(byte) 0x81, (byte) 0xa1, 'k', (byte) 0xd0, 1}; // {k: 1}, 1 as an int8
            queue.enqueueMany(List.of(new JobRequest("a", Msgpack.encode(ValueFactory.newString("x")), 3, 1, true,
                    5_000), new JobRequest("b", new byte[] {(byte) 0xc0}, -2, 0, false, 70_000),
                    new JobRequest("c", Msgpack.encode(Msgpack.map("k", 1, "z", List.of(1.5, "s"))), 0, 0, false,
                            9_000),
                    new JobRequest("c", kOneInt8, 0, 0, false, 9_000),
                    new JobRequest("c", Msgpack.encode(Msgpack.map("k", "1")), 0, 0, true, 9_000)));
            now[0] += 10;
            // b; c (id 3, takes c1's only slot); c (id 4) passed over: {k: 1} in another width is the same value;
            // c (id 5, {k: "1"}: only c0); a
            List<Assignment> first = queue.claimMany("w1", 5);
            answers.add("claim1=" + first.stream().map(Assignment::name).toList());
            answers.add("ids1=" + first.stream().map(Assignment::id).toList());
            now[0] += 1_000;
            answers.add("report1=" + queue.reportMany(List.of(
                    new AttemptReport(4, 1, failure(true, longMessage)),
                    new AttemptReport(1, 1, failure(true, longMessage)),
                    new AttemptReport(2, 1, new Outcome.Success(
                            Msgpack.encode(Msgpack.map("type", "success", "result", 1)))))));
            answers.add("release=" + queue.release(5, 1) + "," + queue.release(5, 1));
            answers.add("cancel-running=" + queue.cancel(3).map(JqBatchTest::text));
            answers.add("cancel-finished=" + queue.cancel(2).map(JqBatchTest::text));
            answers.add("cancel-unknown=" + queue.cancel(99).map(JqBatchTest::text));
            now[0] += 5_000; // past the 1 s backoff: the retry is promoted by the next claim
            List<Assignment> second = queue.claimMany("w2", 5);
            answers.add("claim2=" + second.stream().map(a -> a.id() + "/" + a.attempt()).toList());
            now[0] += 3;
            queue.reportMany(List.of(new AttemptReport(1, 2, failure(true, null))));
            answers.add("cancel-again=" + queue.cancel(5).map(JqBatchTest::text));
            answers.add("take5=" + queue.takeResultWithState(5).result().map(java.util.HexFormat.of()::formatHex)
                    + queue.takeResultWithState(5).state());
            answers.add("take-unknown=" + queue.takeResultWithState(99).result() + queue.takeResultWithState(99)
                    .state());
            dump(jedis, "1 ", keys);
            now[0] += 2 * 86_400_000L; // past every retention: the sweep drops kept results and finished records
            queue.sweep();
            answers.add("take1-expired=" + queue.takeResult(1));
            dump(jedis, "2 ", keys);
        }
        keys.put("answers", answers.toString());
        return keys;
    }

    /**
     * promoteDue outside a claim (promote.lua) and the constraint edits (constraint_put.lua, constraint_remove.lua)
     * against their MULTI/EXEC and HSET forms, at the same clock readings: every key byte for byte and every answer.
     * The history: two constraints defined; jobs claimed under them (a rate log and running sets written), three failed
     * with retries; a promotion before any backoff passed (nothing), one after two of the three passed (one promoted;
     * the other due member's record was trimmed: dropped, not counted), a redefinition of a constraint with other
     * limits (its log and running set kept), the removal of a constraint in use (definition, log and running set
     * gone) and of an unknown one; a claim then admitted by the redefined limits.
     */
    @AcrossTargets
    void promotionAndConstraintEditsWriteWhatTheOptimisticFormsWrite(RedisTarget target) {
        Map<String, String> scripted = promotionsAndEdits(target, Transitions.SCRIPTS);
        Map<String, String> optimistic = promotionsAndEdits(target, Transitions.OPTIMISTIC);
        assertThat(scripted).isEqualTo(optimistic).containsKeys("1 jq:constraint:rate:starts",
                "1 jq:constraint:one:running", "2 jq:delayed", "3 jq:constraint:rate:starts")
                .doesNotContainKeys("3 jq:constraint:one:running", "3 jq:constraint:one:starts");
        assertThat(scripted.get("answers")).contains("claim=[1, 2, 3, 4]", "promote-early=0",
                "promote=1", "delayed-left=1", "remove=true", "remove-unknown=false", "claim-after=[2, 5]",
                "constraints=[rate]");
    }

    private static Map<String, String> promotionsAndEdits(RedisTarget target, Transitions transitions) {
        try (RespClient admin = new RespClient(target.host(), target.port())) {
            admin.call("FLUSHALL");
        }
        long[] now = {1_700_000_000_011L};
        InstantSource clock = () -> Instant.ofEpochMilli(now[0]);
        Map<String, String> keys = new java.util.TreeMap<>();
        List<String> answers = new ArrayList<>();
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            JobQueue queue = new JobQueue(jedis, JqKeys.standard(), clock,
                    JqOptions.defaults().withTransitions(transitions));
            queue.putConstraint(new Constraint("one", JobMatcher.byName("a"), 0, 0, 1));
            queue.putConstraint(new Constraint("rate", JobMatcher.byName("b"), 2, 60_000, 0));
            queue.enqueueMany(List.of(new JobRequest("a", new byte[] {(byte) 0xc0}, 0, 2, false, 9_000),
                    new JobRequest("b", new byte[] {(byte) 0xc0}, 0, 2, false, 9_000),
                    new JobRequest("b", new byte[] {(byte) 0xc0}, 1, 2, false, 9_000),
                    new JobRequest("c", new byte[] {(byte) 0xc0}, 2, 2, false, 9_000),
                    new JobRequest("a", new byte[] {(byte) 0xc0}, 3, 2, false, 9_000),
                    new JobRequest("b", new byte[] {(byte) 0xc0}, 4, 2, false, 9_000)));
            answers.add("claim=" + queue.claimMany("w", 6).stream().map(Assignment::id).toList());
            now[0] += 100;
            queue.reportMany(List.of(new AttemptReport(2, 1, failure(true, "x")),
                    new AttemptReport(3, 1, failure(true, "y"))));
            long firstFailures = now[0];
            now[0] += 500;
            queue.reportMany(List.of(new AttemptReport(4, 1, failure(true, "z"))));
            dump(jedis, "1 ", keys);
            answers.add("promote-early=" + queue.promoteDue());
            // the backoffs of jobs 2 and 3 have passed, job 4's (reported 500 ms later) has not; job 3's record trimmed
            now[0] = firstFailures + JqOptions.defaults().backoffBase().toMillis() + 1;
            jedis.del("jq:job:3");
            answers.add("promote=" + queue.promoteDue());
            answers.add("delayed-left=" + jedis.zcard("jq:delayed"));
            dump(jedis, "2 ", keys);
            queue.putConstraint(new Constraint("rate", JobMatcher.byName("b"), 3, 30_000, 2));
            answers.add("remove=" + queue.removeConstraint("one"));
            answers.add("remove-unknown=" + queue.removeConstraint("none"));
            answers.add("constraints=" + queue.constraints().stream().map(Constraint::id).toList());
            now[0] += 1;
            // job 2 (b): 2 dispatches in the window, admitted by the redefined rate (3 per 30 s; the old 2 per minute
            // would refuse it); job 5 (a): its constraint is gone; job 6 (b): the rate is full again
            answers.add("claim-after=" + queue.claimMany("w", 3).stream().map(Assignment::id).toList());
            dump(jedis, "3 ", keys);
        }
        keys.put("answers", answers.toString());
        return keys;
    }

    /**
     * The claim script's matcher (matching.lua) against the Java one (JobMatcher.matches, msgpack-java's Value.equals)
     * on arguments where decoding to Lua values would go wrong: integers of every width and sign, floats of both widths
     * and signed zeros, strings in two encodings against a binary, maps in another entry order, a 16-bit array header,
     * the largest uint64 against int64 -1, nil, an argument that is not a map. Every constraint has no limit, so each
     * job is claimed and holds exactly the constraints that matched it.
     */
    @AcrossTargets
    void theClaimScriptMatchesArgumentsAsTheJavaMatcherDoes(RedisTarget target) {
        try (RespClient admin = new RespClient(target.host(), target.port())) {
            admin.call("FLUSHALL");
        }
        Map<String, Value> wanted = new java.util.TreeMap<>(Map.of(
                "int1", ValueFactory.newInteger(1),
                "float1", ValueFactory.newFloat(1.0),
                "zero", ValueFactory.newFloat(0.0),
                "str1", ValueFactory.newString("1"),
                "bin1", ValueFactory.newBinary("1".getBytes(StandardCharsets.UTF_8)),
                "map", Msgpack.map("a", 1, "b", 2),
                "array", ValueFactory.newArray(ValueFactory.newInteger(1), ValueFactory.newString("x")),
                "neg", ValueFactory.newInteger(-200),
                "umax", ValueFactory.newInteger(new java.math.BigInteger("18446744073709551615")),
                "nil", ValueFactory.newNil()));
        String[] arguments = {"81a16b01", "81a16bcd0001", "81a16bd30000000000000001", "81a16bcb3ff0000000000000",
            "81a16bca3f800000", "81a16ba131", "81a16bc40131", "81a16bd90131", "81a16b82a16202a16101",
            "81a16bdc000201a178", "81a16bd1ff38", "81a16bcfffffffffffffffff", "81a16bd3ffffffffffffffff", "9101",
            "de0002a16b01a17ac0", "81a16bc0", "81a16bcb8000000000000000", "81a16bca00000000", "81a16bd000",
            "81a16bcc01", "81a16b82a16101a16202"};
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            JobQueue queue = new JobQueue(jedis, JqKeys.standard(), InstantSource.system(), JqOptions.defaults());
            Map<String, JobMatcher> matchers = new java.util.TreeMap<>();
            wanted.forEach((id, value) -> {
                JobMatcher matcher = new JobMatcher("j", Map.of("k", value));
                matchers.put(id, matcher);
                queue.putConstraint(new Constraint(id, matcher, 0, 0, 0));
            });
            List<JobRequest> jobs = new ArrayList<>();
            for (String hex : arguments) {
                jobs.add(new JobRequest("j", java.util.HexFormat.of().parseHex(hex), 0, 0, false, 60_000));
            }
            List<Long> ids = queue.enqueueMany(jobs);
            assertThat(queue.claimMany("w", 100)).hasSize(arguments.length);
            int matchedSomewhere = 0;
            for (int i = 0; i < arguments.length; i++) {
                byte[] argument = jobs.get(i).argument();
                List<String> expected = matchers.entrySet().stream()
                        .filter(e -> e.getValue().matches("j", argument)).map(Map.Entry::getKey).toList();
                matchedSomewhere += expected.isEmpty() ? 0 : 1;
                assertThat(queue.job(ids.get(i)).orElseThrow().heldConstraints()).as("argument %s", arguments[i])
                        .isEqualTo(expected);
            }
            assertThat(matchedSomewhere).as("arguments some constraint matched").isGreaterThan(10);
        }
    }

    private static String text(CancelResult r) {
        return r.state() + "/" + r.cancelled();
    }

    private static void dump(Jedis jedis, String tag, Map<String, String> keys) {
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
            keys.put(tag + key, dump);
        }
    }

    private static Outcome failure(boolean retry, String message) {
        byte[] encoded = Msgpack.encode(Msgpack.map("type", "failure", "reason", "other", "should_retry", retry,
                "message", message));
        return new Outcome.Failure(encoded, "other", retry, message);
    }
}
