package dev.redsim.queue.jq;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.queue.jq.client.JqClientException;
import dev.redsim.queue.jq.client.JqPusher;
import dev.redsim.queue.jq.client.JqWorker;
import dev.redsim.queue.jq.http.KeepAliveClient;
import dev.redsim.queue.jq.master.JqMaster;
import dev.redsim.queue.jq.master.MasterSettings;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.Test;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;
import redis.clients.jedis.Jedis;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The master's options: push allow-list, API token, key prefix, a Redis URL with a password; and cancel. */
class JqMasterSettingsTest {
    private static URI redis(RedisTarget target) {
        try (RespClient client = new RespClient(target.host(), target.port())) {
            client.call("FLUSHALL");
        }
        return URI.create("redis://" + target.host() + ":" + target.port());
    }

    private static int register(JqMaster master, String url) throws Exception {
        try (KeepAliveClient http = new KeepAliveClient()) {
            return http.send(master.uri().resolve("/workers"), "POST", "application/msgpack",
                    Msgpack.encode(Msgpack.map("url", url, "concurrency", 1)), Duration.ofSeconds(10)).status();
        }
    }

    @AcrossTargets
    void pushDeliveryIsOffByDefaultAndLimitedToTheAllowList(RedisTarget target) throws Exception {
        try (JqMaster master = JqMaster.start(redis(target), "127.0.0.1", 0)) {
            assertThat(register(master, "http://127.0.0.1:9/run")).as("no allow-list: push is off").isEqualTo(403);
        }
        MasterSettings allowing = MasterSettings.defaults().withPushAllowList(List.of("http://127.0.0.1:9/"));
        try (JqMaster master = JqMaster.start(redis(target), "127.0.0.1", 0, allowing)) {
            assertThat(register(master, "http://169.254.169.254/latest/meta-data")).isEqualTo(403);
            assertThat(register(master, "http://127.0.0.1:99/run")).as("another port").isEqualTo(403);
            assertThat(register(master, "http://127.0.0.1:9/run")).isEqualTo(201);
        }
    }

    @AcrossTargets
    void anApiTokenGuardsEveryRouteButThePageAndTheDocument(RedisTarget target) throws Exception {
        MasterSettings guarded = MasterSettings.defaults().withApiToken("s3cret");
        try (JqMaster master = JqMaster.start(redis(target), "127.0.0.1", 0, guarded);
             JqPusher anonymous = new JqPusher(master.uri());
             JqPusher wrong = new JqPusher(master.uri(), "guess");
             JqPusher pusher = new JqPusher(master.uri(), "s3cret");
             KeepAliveClient http = new KeepAliveClient()) {
            Value job = Msgpack.map("name", "n", "argument", "a");
            assertThatThrownBy(() -> anonymous.enqueue(JqPusher.job("n", ValueFactory.newString("a"))))
                    .isInstanceOf(JqClientException.class).hasMessageContaining("401");
            assertThatThrownBy(() -> wrong.enqueue(JqPusher.job("n", ValueFactory.newString("a"))))
                    .isInstanceOf(JqClientException.class).hasMessageContaining("401");
            long id = pusher.enqueue(JqPusher.job("n", ValueFactory.newString("a")));
            assertThat(id).isPositive();
            assertThat(http.send(master.uri().resolve("/"), "GET", null, null, Duration.ofSeconds(10)).status())
                    .isEqualTo(200);
            assertThat(http.send(master.uri().resolve("/openapi.json"), "GET", null, null, Duration.ofSeconds(10))
                    .status()).isEqualTo(200);
            assertThat(http.send(master.uri().resolve("/ui/overview"), "GET", null, null, Duration.ofSeconds(10))
                    .status()).isEqualTo(401);
            try (JqWorker worker = new JqWorker(master.uri(), "w", (n, a) -> a, "s3cret")) {
                assertThat(worker.runOnce(0)).isTrue();
            }
            assertThat(job).isNotNull();
        }
    }

    @AcrossTargets
    void cancelEndsAQueuedOrRunningJobAndLeavesAFinishedOne(RedisTarget target) throws Exception {
        try (JqMaster master = JqMaster.start(redis(target), "127.0.0.1", 0);
             JqPusher pusher = new JqPusher(master.uri());
             KeepAliveClient http = new KeepAliveClient()) {
            long queued = pusher.enqueue(JqPusher.job("c", ValueFactory.newString("1")).keepResult(true));
            assertThat(pusher.cancel(queued)).isTrue();
            Map<String, Value> kept = Msgpack.fields(pusher.takeResult(queued).orElseThrow());
            assertThat(kept.get("reason").asStringValue().asString()).isEqualTo("cancelled");
            assertThat(pusher.cancel(queued)).as("a second cancel changes nothing").isFalse();

            long running = pusher.enqueue(JqPusher.job("c", ValueFactory.newString("2")).maxRetry(3));
            var next = http.send(master.uri().resolve("/workers/next"), "POST", "application/msgpack",
                    Msgpack.encode(Msgpack.map("worker", "w", "wait_ms", 0)), Duration.ofSeconds(10));
            Map<String, Value> assignment = Msgpack.fields(Msgpack.decode(next.body()));
            assertThat(assignment.get("id").asIntegerValue().toLong()).isEqualTo(running);
            assertThat(pusher.cancel(running)).isTrue();
            byte[] outcome = Msgpack.encode(Msgpack.map("type", "success", "finished_at", "2023-11-14T22:13:20Z",
                    "result", "late"));
            assertThat(http.send(master.uri().resolve("/jobs/" + running + "/attempts/1/outcome"), "POST",
                    "application/msgpack", outcome, Duration.ofSeconds(10)).status()).as("the late report").isEqualTo(409);
            var record = http.send(master.uri().resolve("/jobs/" + running), "GET", "application/msgpack", null,
                    Duration.ofSeconds(10));
            assertThat(Msgpack.fields(Msgpack.decode(record.body())).get("state").asStringValue().asString())
                    .isEqualTo("failed");

            assertThat(http.send(master.uri().resolve("/jobs/999999/cancel"), "POST", "application/msgpack", null,
                    Duration.ofSeconds(10)).status()).isEqualTo(404);
        }
    }

    @AcrossTargets
    void theClusterPrefixKeepsEveryKeyInOneSlot(RedisTarget target) {
        MasterSettings tagged = MasterSettings.defaults().withKeys(new JqKeys("{jq}:"));
        try (JqMaster master = JqMaster.start(redis(target), "127.0.0.1", 0, tagged);
             JqPusher pusher = new JqPusher(master.uri());
             Jedis jedis = new Jedis(target.host(), target.port())) {
            pusher.enqueue(JqPusher.job("p", ValueFactory.newString("x")));
            assertThat(jedis.keys("*")).isNotEmpty().allMatch(k -> k.startsWith("{jq}:"));
        }
    }

    /** Simulator only: a Redis that needs a password, named in the master's Redis URL. */
    @Test
    void theRedisUrlMayCarryAPassword() {
        try (RedisSimulator secured = RedisSimulator.builder().bind("127.0.0.1").port(0).password("pw").start();
             JqMaster master = JqMaster.start(URI.create("redis://:pw@127.0.0.1:" + secured.port()), "127.0.0.1",
                     0);
             JqPusher pusher = new JqPusher(master.uri())) {
            assertThat(pusher.enqueue(JqPusher.job("p", ValueFactory.newString("x")))).isPositive();
        }
    }
}
