package dev.redsim.queue.jq;

import dev.redsim.conformance.contracts.jq.JqClaim;
import dev.redsim.conformance.contracts.jq.JqConstraintSpec;
import dev.redsim.conformance.contracts.jq.JqJob;
import dev.redsim.conformance.contracts.jq.JqPort;
import dev.redsim.conformance.contracts.jq.JqSubject;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import dev.redsim.conformance.target.ClusterSlotTarget;
import dev.redsim.queue.connection.ClusterClients;
import dev.redsim.queue.connection.RedisConnections;

import java.time.Duration;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Our {@link JobQueue} behind the suite's port: a short backoff base and retention so histories reach them. */
final class JedisJqSubject implements JqSubject {
    static final JqOptions OPTIONS = new JqOptions(Duration.ofSeconds(1), Duration.ofSeconds(16),
            Duration.ofSeconds(10), Duration.ofDays(365), 256);

    private final JqOptions options;
    private final ClusterSlotTarget cluster;

    JedisJqSubject() {
        this(dev.redsim.queue.script.Transitions.SCRIPTS);
    }

    JedisJqSubject(dev.redsim.queue.script.Transitions transitions) {
        this(transitions, null);
    }

    /**
     * On a cluster: the namespace's prefix is the target's hash tag ("{tag}:"), and the queue's connection comes from a
     * JedisCluster (the node of that slot, through RedisConnections, as the master takes it), the host and port
     * handed over standing for that node (a crash sweep's proxy).
     */
    JedisJqSubject(dev.redsim.queue.script.Transitions transitions, ClusterSlotTarget cluster) {
        this.options = OPTIONS.withTransitions(transitions);
        this.cluster = cluster;
    }

    private JqKeys keys() {
        return cluster == null ? JqKeys.standard() : new JqKeys("{" + cluster.hashTag() + "}:");
    }

    @Override
    public JqPort connect(String host, int port, InstantSource clock) {
        if (cluster != null) {
            JedisCluster client = ClusterClients.to(cluster, host, port);
            Jedis jedis = RedisConnections.of(client).forKey(keys().slotKey());
            return new Port(jedis, keys(), clock, client, options);
        }
        return new Port(new Jedis(host, port), keys(), clock, null, options);
    }

    /** Production's clock: Redis's TIME (RedisClock over a pool of its own); the host's clock is not read. */
    @Override
    public JqPort connectOnHost(String host, int port, java.time.Clock hostClock) {
        if (cluster != null) {
            JedisCluster client = ClusterClients.to(cluster, host, port);
            RedisConnections connections = RedisConnections.of(client);
            Jedis jedis = connections.forKey(keys().slotKey());
            return new Port(jedis, keys(), dev.redsim.queue.time.RedisClock.over(connections, keys().slotKey()),
                    client, options);
        }
        redis.clients.jedis.JedisPool timePool = new redis.clients.jedis.JedisPool(host, port);
        return new Port(new Jedis(host, port), keys(), dev.redsim.queue.time.RedisClock.over(timePool), timePool,
                options);
    }

    @Override
    public Duration backoffBase() {
        return OPTIONS.backoffBase();
    }

    @Override
    public Duration backoffCap() {
        return OPTIONS.backoffCap();
    }

    @Override
    public Duration resultRetention() {
        return OPTIONS.resultRetention();
    }

    private static final class Port implements JqPort {
        private final Jedis jedis;
        private final JobQueue queue;
        private final AutoCloseable clockResources;

        /** {@code clockResources}: closed with the port (the clock's pool, or the cluster client). */
        Port(Jedis jedis, JqKeys keys, InstantSource clock, AutoCloseable clockResources, JqOptions options) {
            this.jedis = jedis;
            this.clockResources = clockResources;
            this.queue = new JobQueue(jedis, keys, clock, options);
        }

        @Override
        public long enqueue(JqJob job) {
            Value argument = job.tenant() == null ? ValueFactory.newString("x")
                    : Msgpack.map("tenant", job.tenant());
            return queue.enqueue(new JobRequest(job.name(), Msgpack.encode(argument), job.priority(),
                    job.maxRetry(), job.keepResult(), job.timeoutMillis()));
        }

        @Override
        public Optional<JqClaim> claim(String worker) {
            return queue.claim(worker).map(a -> new JqClaim(a.id(), a.attempt(), a.name()));
        }

        @Override
        public boolean succeed(JqClaim claim, String result) {
            byte[] encoded = Msgpack.encode(Msgpack.map("type", "success", "finished_at", "2023-11-14T22:13:20Z",
                    "result", result));
            return queue.report(claim.id(), claim.attempt(), new Outcome.Success(encoded)) == ReportStatus.ACCEPTED;
        }

        @Override
        public boolean fail(JqClaim claim, boolean shouldRetry, String message) {
            byte[] encoded = Msgpack.encode(Msgpack.map("type", "failure", "reason", "other",
                    "finished_at", "2023-11-14T22:13:20Z", "should_retry", shouldRetry, "error", null,
                    "message", message));
            Outcome outcome = new Outcome.Failure(encoded, "other", shouldRetry, message);
            return queue.report(claim.id(), claim.attempt(), outcome) == ReportStatus.ACCEPTED;
        }

        @Override
        public int expireOverdue() {
            return queue.expireOverdue();
        }

        @Override
        public String takeResult(long id) {
            return queue.takeResult(id).map(bytes -> {
                Map<String, Value> f = Msgpack.fields(Msgpack.decode(bytes));
                String type = f.get("type").asStringValue().asString();
                return type.equals("success") ? "success:" + f.get("result").asStringValue().asString()
                        : "failure:" + f.get("reason").asStringValue().asString();
            }).orElse(null);
        }

        @Override
        public void putConstraint(JqConstraintSpec c) {
            Map<String, Value> args = c.tenant() == null ? Map.of() : Map.of("tenant", ValueFactory.newString(c.tenant()));
            queue.putConstraint(new Constraint(c.id(), new JobMatcher(c.name(), args), c.rateLimit(),
                    c.windowMillis(), c.concurrency()));
        }

        @Override
        public Map<String, List<Long>> places() {
            Map<String, List<Long>> out = new HashMap<>();
            queue.places().forEach((state, ids) -> out.put(state.wire(), ids));
            return out;
        }

        @Override
        public Map<String, List<Long>> constraintUsage() {
            Map<String, List<Long>> out = new HashMap<>();
            queue.constraintUsage().forEach((id, usage) -> out.put(id, List.of(usage[0], usage[1])));
            return out;
        }

        @Override
        public Map<String, Map<String, Long>> stats() {
            Map<String, Map<String, Long>> out = new HashMap<>();
            queue.counts().forEach((name, byState) -> {
                Map<String, Long> counts = new HashMap<>();
                byState.forEach((state, n) -> counts.put(state.wire(), n));
                out.put(name, counts);
            });
            return out;
        }

        @Override
        public int attempts(long id) {
            return queue.job(id).map(JobRecord::attempts).orElse(0);
        }

        @Override
        public void close() {
            jedis.close();
            if (clockResources != null) {
                try {
                    clockResources.close();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }
}
