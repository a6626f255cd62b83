package dev.redsim.queue.jq.master;

import dev.redsim.queue.jq.JqKeys;
import dev.redsim.simulator.RedisSimulator;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a JQ master. Without --redis, a redsim simulator is started in-process (on a free port of 127.0.0.1) and
 * used as the Redis. Options: see {@link #USAGE}.
 */
public final class MasterMain {
    static final String USAGE = String.join("\n",
            "usage: java -jar redsim-jq-master.jar [options]",
            "  --port 8080                 HTTP port (0: any free port)",
            "  --bind 127.0.0.1            HTTP address",
            "  --redis redis://[:password@]host:port[/db]   the Redis (default: an in-process simulator)",
            "  --prefix jq:                key prefix; {jq}: keeps every key in one Redis Cluster slot",
            "  --api-token TOKEN           require Authorization: Bearer TOKEN on the API (default: none)",
            "  --push-allow URL-PREFIX     a URL prefix POST /workers may register (repeatable; default: push off)",
            "  --finished-retention 1d     keep finished job records this long (s, m, h, d or ISO-8601)",
            "  --result-retention 1h       keep unread results this long",
            "  --transitions scripts       scripts (default) or optimistic (WATCH/MULTI, for a Redis without scripts)");

    private MasterMain() {
    }

    /** The parsed command line. */
    record Options(int port, String bind, String redis, MasterSettings settings) {
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
        RedisSimulator simulator = options.redis() == null
                ? RedisSimulator.builder().bind("127.0.0.1").port(0).start() : null;
        URI redisUri = simulator != null ? simulator.uri() : URI.create(options.redis());
        JqMaster master = JqMaster.start(redisUri, options.bind(), options.port(), options.settings());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            master.close();
            if (simulator != null) {
                simulator.close();
            }
            stopped.countDown();
        }, "jq-master-stop"));
        // The Redis URL is printed without its password.
        System.out.printf("JQ master ready on http://%s:%d (Redis: %s%s); web UI at /, API at /openapi.json%n",
                options.bind(), master.port(), withoutPassword(redisUri),
                simulator != null ? ", in-process simulator" : "");
        stopped.await();
    }

    static Options parse(String[] args) {
        int port = 8080;
        String bind = "127.0.0.1";
        String redis = null;
        MasterSettings settings = MasterSettings.defaults();
        List<String> allow = new ArrayList<>();
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
        return new Options(port, bind, redis, settings.withPushAllowList(allow));
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
