package dev.redsim.queue.conveyor;

import dev.redsim.conformance.contracts.conveyor.Claimed;
import dev.redsim.conformance.contracts.conveyor.ConveyorPort;
import dev.redsim.conformance.contracts.conveyor.ConveyorSubject;
import dev.redsim.conformance.contracts.conveyor.JobSpec;
import dev.redsim.conformance.target.ClusterSlotTarget;
import dev.redsim.queue.connection.ClusterClients;
import dev.redsim.queue.connection.RedisConnections;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Plugs our Conveyor into the contract suite: on one server with the spec's key names, or on a cluster target through
 * a JedisCluster with every key under the target's hash tag.
 */
final class JedisConveyorSubject implements ConveyorSubject {
    static final ConveyorOptions OPTIONS = ConveyorOptions.defaults()
            .withLease(Duration.ofSeconds(10))
            .withBackoff(Duration.ofSeconds(1), Duration.ofSeconds(4));

    private final ConveyorOptions options;
    private final ClusterSlotTarget cluster;
    private final ConveyorKeys keys;

    /** The default transitions: Lua scripts. */
    JedisConveyorSubject() {
        this(dev.redsim.queue.script.Transitions.SCRIPTS);
    }

    JedisConveyorSubject(dev.redsim.queue.script.Transitions transitions) {
        this.options = OPTIONS.withTransitions(transitions);
        this.cluster = null;
        this.keys = ConveyorKeys.standard();
    }

    /** On a cluster: a JedisCluster client, every key under the target's hash tag, wakes on a shard channel. */
    JedisConveyorSubject(ClusterSlotTarget cluster) {
        this(cluster, dev.redsim.queue.script.Transitions.SCRIPTS);
    }

    JedisConveyorSubject(ClusterSlotTarget cluster, dev.redsim.queue.script.Transitions transitions) {
        this.options = OPTIONS.withTransitions(transitions);
        this.cluster = cluster;
        this.keys = new ConveyorKeys("{" + cluster.hashTag() + "}:").withShardedWake(); // as recommended on a cluster
    }

    @Override
    public String keyPrefix() {
        return keys.prefix();
    }

    @Override
    public ConveyorPort connect(String host, int port, InstantSource clock) {
        if (cluster != null) {
            JedisCluster client = ClusterClients.to(cluster, host, port);
            Jedis jedis = RedisConnections.of(client).forKey(keys.slotKey());
            return new Port(jedis, clock, options, keys) {
                @Override
                public void close() {
                    super.close();
                    client.close();
                }
            };
        }
        // No CLIENT SETINFO on connect: the crash tests count every command, and it is not part of any operation.
        Jedis jedis = new Jedis(new HostAndPort(host, port), DefaultJedisClientConfig.builder()
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED).socketTimeoutMillis(5000).build());
        return new Port(jedis, clock, options, keys);
    }

    @Override
    public Duration lease() {
        return OPTIONS.lease();
    }

    @Override
    public Duration backoff(int retry) {
        return OPTIONS.backoff(retry);
    }

    private static class Port implements ConveyorPort {
        private final Jedis jedis;
        private final Conveyor conveyor;
        private final ConveyorInspector inspector;

        Port(Jedis jedis, InstantSource clock, ConveyorOptions options, ConveyorKeys keys) {
            this.jedis = jedis;
            this.conveyor = new Conveyor(jedis, clock, options, keys);
            this.inspector = new ConveyorInspector(jedis, keys);
        }

        @Override
        public void add(JobSpec spec, boolean deadParent) {
            Job job = Job.of(spec.queue(), spec.payload()).withUuid(spec.uuid()).withParent(spec.parent())
                    .withPredecessor(spec.predecessor()).withMaxRetries(spec.maxRetries())
                    .withRunAt(spec.runAtMillis() == 0 ? null : Instant.ofEpochMilli(spec.runAtMillis()));
            conveyor.add(Deadline.none(), job, deadParent);
        }

        @Override
        public Optional<Claimed> claim(String queue) {
            return conveyor.claim(Deadline.none(), queue)
                    .map(lease -> new Claimed(lease.uuid(), lease.job().retry(), lease));
        }

        @Override
        public boolean complete(Claimed claimed) {
            try {
                conveyor.complete(Deadline.none(), (Lease) claimed.lease());
                return true;
            } catch (LeaseLostException e) {
                return false;
            }
        }

        @Override
        public boolean fail(Claimed claimed, String reason) {
            try {
                conveyor.fail(Deadline.none(), (Lease) claimed.lease(), reason);
                return true;
            } catch (LeaseLostException e) {
                return false;
            }
        }

        @Override
        public int runScheduler() {
            return conveyor.runScheduler(Deadline.none());
        }

        @Override
        public int recoverExpired() {
            return conveyor.recoverExpiredLeases(Deadline.none());
        }

        @Override
        public Map<String, List<String>> places(Collection<String> queues, Collection<String> uuids) {
            return inspector.places(queues, uuids);
        }

        @Override
        public void close() {
            jedis.close();
        }
    }
}
