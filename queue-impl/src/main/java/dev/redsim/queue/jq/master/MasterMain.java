package dev.redsim.queue.jq.master;

import dev.redsim.simulator.RedisSimulator;

import java.net.URI;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a JQ master: {@code java -jar redsim-jq-master.jar [--port 8080] [--bind 127.0.0.1] [--redis redis://h:p]}.
 * Without --redis, a redsim simulator is started in-process (on a free port of 127.0.0.1) and used as the Redis.
 */
public final class MasterMain {
    private MasterMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = 8080;
        String bind = "127.0.0.1";
        String redis = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--bind" -> bind = args[++i];
                case "--redis" -> redis = args[++i];
                default -> {
                    System.err.println("usage: [--port 8080] [--bind 127.0.0.1] [--redis redis://host:port]");
                    System.exit(2);
                }
            }
        }
        RedisSimulator simulator = redis == null ? RedisSimulator.builder().bind("127.0.0.1").port(0).start() : null;
        URI redisUri = simulator != null ? simulator.uri() : URI.create(redis);
        JqMaster master = JqMaster.start(redisUri, bind, port);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            master.close();
            if (simulator != null) {
                simulator.close();
            }
            stopped.countDown();
        }, "jq-master-stop"));
        System.out.printf("JQ master ready on http://%s:%d (Redis: %s%s); web UI at /, API at /openapi.json%n",
                bind, master.port(), redisUri, simulator != null ? ", in-process simulator" : "");
        stopped.await();
    }
}
