package dev.redsim.queue.rescue;

import dev.redsim.conformance.contracts.rescue.RescuePort;
import dev.redsim.conformance.contracts.rescue.RescueSubject;
import dev.redsim.conformance.contracts.rescue.RescueTask;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import dev.redsim.conformance.target.ClusterSlotTarget;
import dev.redsim.queue.connection.ClusterClients;
import dev.redsim.queue.connection.RedisConnections;

import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;

/** Plugs our rescue engine into the contract suite. */
final class JedisRescueSubject implements RescueSubject {
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration RETENTION = Duration.ofMinutes(2);

    /** The suite's queue: its keys' hash tag is {rescue:contract}. */
    static final String QUEUE = "contract";

    private final dev.redsim.queue.script.Transitions transitions;
    private final ClusterSlotTarget cluster;

    JedisRescueSubject() {
        this(dev.redsim.queue.script.Transitions.SCRIPTS);
    }

    JedisRescueSubject(dev.redsim.queue.script.Transitions transitions) {
        this(transitions, null);
    }

    /**
     * On a cluster: the engine's connection comes from a JedisCluster (the node serving the queue's slot, through
     * RedisConnections, as RescueClient and RescueWorker take it), the host and port handed over standing for that
     * node (a crash sweep's proxy).
     */
    JedisRescueSubject(dev.redsim.queue.script.Transitions transitions, ClusterSlotTarget cluster) {
        this.transitions = transitions;
        this.cluster = cluster;
    }

    @Override
    public RescuePort connect(String host, int port, InstantSource clock, String worker) {
        RescueOptions options = RescueOptions.of(QUEUE, worker).withLease(LEASE).withRetention(RETENTION)
                .withTransitions(transitions);
        if (cluster != null) {
            options = options.withShardedWake(); // as recommended on a cluster: every script then SPUBLISHes there
            JedisCluster client = ClusterClients.to(cluster, host, port);
            Jedis jedis = RedisConnections.of(client).forKey(new RescueKeys(QUEUE).slotKey());
            return new Port(jedis, new RescueEngine(jedis, clock, options), client);
        }
        Jedis jedis = new Jedis(new HostAndPort(host, port), DefaultJedisClientConfig.builder()
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED).socketTimeoutMillis(5000).build());
        return new Port(jedis, new RescueEngine(jedis, clock, options), null);
    }

    @Override
    public Duration lease() {
        return LEASE;
    }

    @Override
    public Duration retention() {
        return RETENTION;
    }

    /** Ours uses the documented layout: the histories also compare the raw keys with the model. */
    @Override
    public boolean rawLayout() {
        return true;
    }

    static Task toTask(RescueTask t) {
        return Task.empty().with(Task.Section.CORE, t.core()).with(Task.Section.CRON, t.cron())
                .with(Task.Section.GATE, t.gate()).with(Task.Section.META, t.meta())
                .with(Task.Section.NODE, t.node()).with(Task.Section.ROOT, t.root())
                .with(Task.Section.SYNC, t.sync());
    }

    static RescueTask fromTask(Task t) {
        return new RescueTask(t.core(), t.cron(), t.gate(), t.meta(), t.node(), t.root(), t.sync());
    }

    private record Port(Jedis jedis, RescueEngine engine, JedisCluster cluster) implements RescuePort {
        @Override
        public String worker() {
            return engine.worker();
        }

        @Override
        public Optional<RescueTask> create(RescueTask task) {
            return engine.create(toTask(task)).map(JedisRescueSubject::fromTask);
        }

        @Override
        public boolean delete(RescueTask task) {
            try {
                engine.delete(toTask(task));
                return true;
            } catch (NotOwnerException e) {
                return false;
            }
        }

        @Override
        public Optional<RescueTask> extend(RescueTask task) {
            try {
                return Optional.of(fromTask(engine.extend(toTask(task))));
            } catch (NotOwnerException e) {
                return Optional.empty();
            }
        }

        @Override
        public boolean exists(RescueTask query) {
            return engine.exists(toTask(query));
        }

        @Override
        public int expire() {
            return engine.expire();
        }

        @Override
        public int ticker() {
            return engine.ticker();
        }

        @Override
        public Optional<RescueTask> search() {
            return engine.search().map(JedisRescueSubject::fromTask);
        }

        @Override
        public List<RescueTask> list() {
            return engine.list().stream().map(JedisRescueSubject::fromTask).toList();
        }

        @Override
        public void close() {
            jedis.close();
            if (cluster != null) {
                cluster.close();
            }
        }
    }
}
