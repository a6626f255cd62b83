package dev.redsim.queue.jq.master;

import dev.redsim.queue.jq.JqKeys;
import dev.redsim.simulator.RedisSimulator;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a JQ master over one Redis (--redis), a Redis Cluster (--cluster seed nodes), or, with neither, a redsim
 * simulator started in-process (on a free port of 127.0.0.1). Options: see {@link #USAGE}.
 */
public final class MasterMain {
    static final String USAGE = String.join("\n",
            "usage: java -jar redsim-jq-master.jar [options]",
            "  --port 8080                 HTTP port (0: any free port)",
            "  --bind 127.0.0.1            HTTP address",
            "  --redis redis://[:password@]host:port[/db]   the Redis (default: an in-process simulator)",
            "  --cluster redis://[[user]:password@]host:port   a Redis Cluster seed node (repeatable, or comma-",
            "                              separated); needs a prefix with a hash tag, e.g. --prefix '{jq}:'",
            "  --prefix jq:                key prefix; {jq}: keeps every key in one Redis Cluster slot",
            "  --api-token TOKEN           require Authorization: Bearer TOKEN on the API (default: none)",
            "  --push-allow URL-PREFIX     a URL prefix POST /workers may register (repeatable; default: push off)",
            "  --finished-retention 1d     keep finished job records this long (s, m, h, d or ISO-8601)",
            "  --result-retention 1h       keep unread results this long",
            "  --transitions scripts       scripts (default) or optimistic (WATCH/MULTI, for a Redis without scripts)");

    private MasterMain() {
    }

    /** The parsed command line: {@code redis} and {@code clusterSeeds} are never both given. */
    record Options(int port, String bind, String redis, List<URI> clusterSeeds, MasterSettings settings) {
    }

    /** A started master and what it was started over (an in-process simulator, a cluster client), closed with it. */
    record Running(JqMaster master, String redisDescription, AutoCloseable owned) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            master.close();
            if (owned != null) {
                owned.close();
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        Running running;
        try {
            running = launch(options);
        } catch (IllegalArgumentException e) {
            // e.g. a prefix without a hash tag on a cluster (JqMaster refuses it before serving anything)
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                running.close();
            } catch (Exception e) {
                System.err.println("stopping: " + e);
            }
            stopped.countDown();
        }, "jq-master-stop"));
        System.out.printf("JQ master ready on http://%s:%d (Redis: %s); web UI at /, API at /openapi.json%n",
                options.bind(), running.master().port(), running.redisDescription());
        stopped.await();
    }

    /**
     * Starts the master the options describe: over a Redis Cluster (a JedisCluster on the seed nodes, every key in
     * the prefix's slot), over one Redis, or over an in-process simulator. Passwords are never in the description.
     */
    static Running launch(Options options) {
        if (!options.clusterSeeds().isEmpty()) {
            URI first = options.clusterSeeds().get(0);
            DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder();
            if (first.getUserInfo() != null) {
                String info = first.getUserInfo();
                int colon = info.indexOf(':');
                if (colon > 0) {
                    config.user(info.substring(0, colon));
                }
                config.password(colon >= 0 ? info.substring(colon + 1) : info);
            }
            Set<HostAndPort> seeds = new LinkedHashSet<>();
            options.clusterSeeds().forEach(uri -> seeds.add(new HostAndPort(uri.getHost(), uri.getPort())));
            JedisCluster cluster = new JedisCluster(seeds, config.build());
            try {
                JqMaster master = JqMaster.start(cluster, options.bind(), options.port(), options.settings());
                return new Running(master, "Redis Cluster via " + seeds, cluster);
            } catch (RuntimeException e) {
                cluster.close();
                throw e;
            }
        }
        RedisSimulator simulator = options.redis() == null
                ? RedisSimulator.builder().bind("127.0.0.1").port(0).start() : null;
        URI redisUri = simulator != null ? simulator.uri() : URI.create(options.redis());
        try {
            JqMaster master = JqMaster.start(redisUri, options.bind(), options.port(), options.settings());
            return new Running(master, withoutPassword(redisUri) + (simulator != null ? ", in-process simulator" : ""),
                    simulator);
        } catch (RuntimeException e) {
            if (simulator != null) {
                simulator.close();
            }
            throw e;
        }
    }

    static Options parse(String[] args) {
        int port = 8080;
        String bind = "127.0.0.1";
        String redis = null;
        MasterSettings settings = MasterSettings.defaults();
        List<String> allow = new ArrayList<>();
        List<URI> seeds = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value for " + name);
            }
            String value = args[++i];
            switch (name) {
                case "--port" -> port = Integer.parseInt(value);
                case "--bind" -> bind = value;
                case "--redis" -> redis = value;
                case "--cluster" -> Arrays.stream(value.split(",")).map(MasterMain::seed).forEach(seeds::add);
                case "--prefix" -> settings = settings.withKeys(new JqKeys(value));
                case "--api-token" -> settings = settings.withApiToken(value);
                case "--push-allow" -> allow.addAll(Arrays.asList(value.split(",")));
                case "--finished-retention" ->
                        settings = settings.withOptions(settings.options().withFinishedRetention(duration(value)));
                case "--result-retention" ->
                        settings = settings.withOptions(settings.options().withResultRetention(duration(value)));
                case "--transitions" -> settings = settings.withOptions(settings.options().withTransitions(
                        dev.redsim.queue.script.Transitions.valueOf(value.toUpperCase(java.util.Locale.ROOT))));
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
        }
        if (redis != null && !seeds.isEmpty()) {
            throw new IllegalArgumentException("--redis and --cluster exclude each other");
        }
        return new Options(port, bind, redis, List.copyOf(seeds), settings.withPushAllowList(allow));
    }

    /** A seed node: redis://[[user]:password@]host:port, or host:port. */
    private static URI seed(String text) {
        URI uri = URI.create(text.contains("://") ? text : "redis://" + text);
        if (uri.getHost() == null || uri.getPort() < 0) {
            throw new IllegalArgumentException("a cluster seed is redis://[[user]:password@]host:port: " + text);
        }
        return uri;
    }

    /** "90s", "30m", "24h", "7d", or ISO-8601 ("PT1H"). */
    static Duration duration(String text) {
        if (text.startsWith("P") || text.startsWith("p")) {
            return Duration.parse(text);
        }
        long n = Long.parseLong(text.substring(0, text.length() - 1));
        return switch (text.charAt(text.length() - 1)) {
            case 's' -> Duration.ofSeconds(n);
            case 'm' -> Duration.ofMinutes(n);
            case 'h' -> Duration.ofHours(n);
            case 'd' -> Duration.ofDays(n);
            default -> throw new IllegalArgumentException("a duration is 90s, 30m, 24h, 7d or ISO-8601: " + text);
        };
    }

    static String withoutPassword(URI uri) {
        return uri.getUserInfo() == null ? uri.toString() : uri.toString().replace(uri.getRawUserInfo() + "@", "***@");
    }
}
