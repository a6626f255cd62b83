package dev.redsim.queue.jq;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.queue.jq.client.JobFailedException;
import dev.redsim.queue.jq.client.JqClientException;
import dev.redsim.queue.jq.client.JqPusher;
import dev.redsim.queue.jq.client.JqWorker;
import dev.redsim.queue.jq.master.JqMaster;
import dev.redsim.queue.jq.master.MasterSettings;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;

import dev.redsim.queue.jq.http.HttpResponse;
import dev.redsim.queue.jq.http.KeepAliveClient;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The master end to end over HTTP, with the Java clients, on the simulator and on a real redis-server. */
class JqMasterTest {
    static JqMaster startOn(RedisTarget target) {
        try (RespClient client = new RespClient(target.host(), target.port())) {
            client.call("FLUSHALL");
        }
        return JqMaster.start(URI.create("redis://" + target.host() + ":" + target.port()), "127.0.0.1", 0,
                MasterSettings.defaults().withPushAllowList(List.of("http://127.0.0.1:")));
    }

    @AcrossTargets
    void longPollWorkerRunsJobsInPriorityOrderAndResultsAreReadOnce(RedisTarget target) {
        try (JqMaster master = startOn(target)) {
            JqPusher pusher = new JqPusher(master.uri());
            List<String> ran = Collections.synchronizedList(new ArrayList<>());
            JqWorker worker = new JqWorker(master.uri(), "w1", (name, argument) -> {
                ran.add(argument.asStringValue().asString());
                return ValueFactory.newString(argument.asStringValue().asString().toUpperCase());
            });
            long late = pusher.enqueue(JqPusher.job("echo", ValueFactory.newString("late")).priority(2).keepResult(true));
            long first = pusher.enqueue(JqPusher.job("echo", ValueFactory.newString("first")).priority(-5).keepResult(true));
            long tie = pusher.enqueue(JqPusher.job("echo", ValueFactory.newString("tie")).keepResult(true));
            long tie2 = pusher.enqueue(JqPusher.job("echo", ValueFactory.newString("tie2")));
            for (int i = 0; i < 4; i++) {
                assertThat(worker.runOnce(0)).isTrue();
            }
            assertThat(worker.runOnce(0)).as("nothing left").isFalse();
            assertThat(ran).containsExactly("first", "tie", "tie2", "late");
            Map<String, Value> outcome = Msgpack.fields(pusher.takeResult(first).orElseThrow());
            assertThat(outcome.get("type").asStringValue().asString()).isEqualTo("success");
            assertThat(outcome.get("result").asStringValue().asString()).isEqualTo("FIRST");
            assertThat(pusher.takeResult(first)).as("read once").isEmpty();
            assertThat(pusher.takeResult(tie2)).as("keep_result false").isEmpty();
            assertThat(pusher.takeResult(late)).isPresent();
            assertThat(pusher.state(tie)).hasValue("succeeded");
            assertThat(pusher.state(999_999)).isEmpty();
        }
    }

    @AcrossTargets
    void aWorkerSayingShouldRetryFalseEndsTheJob(RedisTarget target) {
        try (JqMaster master = startOn(target)) {
            JqPusher pusher = new JqPusher(master.uri());
            JqWorker worker = new JqWorker(master.uri(), "w1", (name, argument) -> {
                throw new JobFailedException("disk full", false, ValueFactory.newString("ENOSPC"));
            });
            long id = pusher.enqueue(JqPusher.job("write", ValueFactory.newNil()).maxRetry(3).keepResult(true));
            assertThat(worker.runOnce(0)).isTrue();
            assertThat(pusher.state(id)).hasValue("failed");
            Map<String, Value> outcome = Msgpack.fields(pusher.takeResult(id).orElseThrow());
            assertThat(outcome.get("type").asStringValue().asString()).isEqualTo("failure");
            assertThat(outcome.get("message").asStringValue().asString()).isEqualTo("disk full");
            assertThat(outcome.get("should_retry").asBooleanValue().getBoolean()).isFalse();
        }
    }

    @AcrossTargets
    void theMasterPushesJobsToARegisteredWorkerEndpoint(RedisTarget target) throws Exception {
        int jobs = 6;
        CountDownLatch ran = new CountDownLatch(jobs);
        try (JqMaster master = startOn(target);
             JqWorker worker = new JqWorker(master.uri(), "push", (name, argument) -> {
                 ran.countDown();
                 return ValueFactory.newInteger(argument.asIntegerValue().toInt() * 2);
             }).serve("127.0.0.1", 0).register("127.0.0.1", 2)) {
            JqPusher pusher = new JqPusher(master.uri());
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < jobs; i++) {
                ids.add(pusher.enqueue(JqPusher.job("double", ValueFactory.newInteger(i)).keepResult(true)));
            }
            assertThat(ran.await(30, TimeUnit.SECONDS)).as("every job reached the worker").isTrue();
            for (int i = 0; i < jobs; i++) {
                long id = ids.get(i);
                // The worker has answered; the master records the outcome right after: a bounded wait on it.
                for (int probe = 0; probe < 10_000 && !pusher.state(id).orElse("").equals("succeeded"); probe++) {
                    Thread.onSpinWait();
                }
                Map<String, Value> outcome = Msgpack.fields(pusher.takeResult(id).orElseThrow());
                assertThat(outcome.get("result").asIntegerValue().toInt()).isEqualTo(2 * i);
            }
        }
    }

    /**
     * A push worker that cannot be reached never got the job: the job goes back to the ready set without using up
     * a try (max_retry 0 here, so a counted failure would have failed it), and the registration is dropped after
     * a few failed deliveries in a row. A long-poll worker then runs the job as its first attempt.
     */
    @AcrossTargets
    void anUnreachablePushWorkerBurnsNoRetryAndIsDropped(RedisTarget target) throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        try (JqMaster master = startOn(target); KeepAliveClient http = new KeepAliveClient();
             JqPusher pusher = new JqPusher(master.uri())) {
            long id = pusher.enqueue(JqPusher.job("once", ValueFactory.newNil()).keepResult(true));
            KeepAliveClient.Response registered = http.send(master.uri().resolve("/workers"), "POST",
                    HttpResponse.MSGPACK, Msgpack.encode(Msgpack.map("url", "http://127.0.0.1:" + closedPort + "/run",
                            "concurrency", 2)), Duration.ofSeconds(5));
            assertThat(registered.status()).isEqualTo(201);
            // Dropped after its failed deliveries (a few hundred ms of pauses): a bounded re-ask, no sleep.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (Msgpack.decode(http.send(master.uri().resolve("/workers"), "GET", HttpResponse.MSGPACK, null,
                    Duration.ofSeconds(5)).body()).asArrayValue().size() > 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            Map<String, Value> job = Msgpack.fields(Msgpack.decode(http.send(master.uri().resolve("/jobs/" + id),
                    "GET", HttpResponse.MSGPACK, null, Duration.ofSeconds(5)).body()));
            assertThat(job.get("state").asStringValue().asString()).as("back in the ready set").isEqualTo("queued");
            assertThat(job.get("attempts").asIntegerValue().toInt()).as("no try used").isZero();
            JqWorker worker = new JqWorker(master.uri(), "poll", (name, argument) -> ValueFactory.newString("done"));
            assertThat(worker.runOnce(0)).isTrue();
            assertThat(pusher.state(id)).hasValue("succeeded");
            Map<String, Value> outcome = Msgpack.fields(pusher.takeResult(id).orElseThrow());
            assertThat(outcome.get("result").asStringValue().asString()).isEqualTo("done");
        }
    }

    @AcrossTargets
    void badInputIsRefusedWithTheMastersMessage(RedisTarget target) {
        try (JqMaster master = startOn(target)) {
            JqPusher pusher = new JqPusher(master.uri());
            assertThatThrownBy(() -> pusher.enqueue(JqPusher.job("", ValueFactory.newNil())))
                    .isInstanceOf(JqClientException.class).hasMessageContaining("400");
            assertThatThrownBy(() -> pusher.enqueue(JqPusher.job("x", ValueFactory.newNil()).timeoutSeconds(-1)))
                    .isInstanceOf(JqClientException.class).hasMessageContaining("timeout");
            assertThatThrownBy(() -> pusher.putConstraint("c", Msgpack.map("rate", Msgpack.map("limit", 1))))
                    .isInstanceOf(JqClientException.class).hasMessageContaining("400");
        }
    }

    /**
     * A handler that throws an Error (not an Exception) fails its attempt, and the worker goes on to the next job
     * (runOnce is what every worker thread loops on: an Error escaping it ended the thread silently).
     */
    @AcrossTargets
    void aHandlerThrowingAnErrorFailsTheAttemptAndTheWorkerGoesOn(RedisTarget target) {
        try (JqMaster master = startOn(target)) {
            JqPusher pusher = new JqPusher(master.uri());
            java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
            try (JqWorker worker = new JqWorker(master.uri(), "err", (name, argument) -> {
                if (calls.incrementAndGet() == 1) {
                    throw new AssertionError("a handler bug");
                }
                return ValueFactory.newString("fine");
            })) {
                long doomed = pusher.enqueue(JqPusher.job("e", ValueFactory.newString("1")).maxRetry(0).keepResult(true));
                long next = pusher.enqueue(JqPusher.job("e", ValueFactory.newString("2")).keepResult(true));
                assertThat(worker.runOnce(0)).isTrue();
                assertThat(worker.runOnce(0)).isTrue();
                Map<String, Value> failure = Msgpack.fields(pusher.takeResult(doomed).orElseThrow());
                assertThat(failure.get("type").asStringValue().asString()).isEqualTo("failure");
                assertThat(failure.get("message").asStringValue().asString()).contains("a handler bug");
                assertThat(Msgpack.fields(pusher.takeResult(next).orElseThrow()).get("type").asStringValue()
                        .asString()).isEqualTo("success");
            }
        }
    }
}
