package dev.redsim.simulator;

import dev.redsim.simulator.version.RedisVersion;

import java.time.Duration;

/**
 * The command line: {@code java -jar redsim-simulator.jar [--port N] [--bind ADDR] [--requirepass PASS]}.
 * Prints a ready line as redis-server does and stops cleanly on SIGINT/SIGTERM. {@code --cluster N} starts a cluster
 * of N masters instead (on free ports, or from --port on) and prints every node's address.
 */
public final class SimulatorMain {
    private SimulatorMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        // the simulator's own transport, as in-process (decision 0051)
        RedisSimulator.Builder builder = RedisSimulator.builder().port(6379);
        int clusterMasters = 0;
        Integer port = null;
        java.util.Map<String, String> parameters = new java.util.LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (arg) {
                case "--port" -> port = number(arg, value);
                case "--cluster" -> clusterMasters = number(arg, value);
                case "--bind" -> builder.bind(require(arg, value));
                case "--requirepass" -> builder.password(require(arg, value));
                case "--databases" -> builder.databases(number(arg, value));
                case "--help", "-h" -> {
                    System.out.println("usage: java -jar redsim-simulator.jar [--port N (6379; 0 = any free port)] "
                            + "[--bind ADDR (127.0.0.1)] [--requirepass PASS] [--databases N (16)] [--<redis config parameter> VALUE ...]"
                            + "\n       java -jar redsim-simulator.jar --cluster N (masters) [--port FIRST (0 = free ports)] "
                            + "[--<redis config parameter> VALUE ...]");
                    return;
                }
                default -> {
                    // like redis-server, any configuration parameter: --notify-keyspace-events KEA
                    if (!arg.startsWith("--") || value == null) {
                        System.err.println("unknown option " + arg + " (try --help)");
                        System.exit(2);
                    }
                    builder.config(arg.substring(2), value);
                    parameters.put(arg.substring(2), value);
                }
            }
            i++;
        }
        if (clusterMasters > 0) {
            runCluster(clusterMasters, port == null ? 0 : port, parameters);
            return;
        }
        builder.port(port == null ? 6379 : port);
        long started = System.nanoTime();
        RedisSimulator simulator;
        try {
            simulator = builder.start();
        } catch (IllegalStateException | IllegalArgumentException e) { // a port in use, a bad value: one line
            System.err.println("redsim: " + e.getMessage());
            System.exit(1);
            return;
        }
        // SIGTERM / SIGINT: the hook closes the simulator.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            simulator.close();
            System.out.println("redsim: stopped");
        }, "redsim-stop"));
        System.out.printf("redsim %s ready to accept connections tcp on %s:%d (started in %d ms)%n",
                RedisVersion.IMITATED.version(), simulator.host(), simulator.port(),
                (System.nanoTime() - started) / 1_000_000);
        // A client's SHUTDOWN closes the simulator: the process then exits with status 0, as redis-server does.
        while (!simulator.awaitClosed(Duration.ofDays(1))) {
            continue;
        }
        System.exit(0);
    }

    /** --cluster N: the cluster's nodes, one ready line each, until SIGINT/SIGTERM or a SHUTDOWN of the first node. */
    private static void runCluster(int masters, int firstPort, java.util.Map<String, String> parameters)
            throws InterruptedException {
        long started = System.nanoTime();
        RedisCluster cluster;
        try {
            RedisCluster.Builder builder = RedisSimulator.cluster().masters(masters).firstPort(firstPort);
            parameters.forEach(builder::config);
            cluster = builder.start();
        } catch (IllegalStateException | IllegalArgumentException e) {
            System.err.println("redsim: " + e.getMessage());
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            cluster.close();
            System.out.println("redsim: stopped");
        }, "redsim-stop"));
        for (int i = 0; i < masters; i++) {
            System.out.printf("redsim %s cluster node %s ready to accept connections tcp on %s%n",
                    RedisVersion.IMITATED.version(), cluster.nodeId(i), cluster.addresses().get(i));
        }
        System.out.printf("redsim: cluster of %d masters ready (started in %d ms)%n", masters,
                (System.nanoTime() - started) / 1_000_000);
        while (!cluster.nodes().get(0).awaitClosed(Duration.ofDays(1))) {
            continue;
        }
        System.exit(0);
    }

    private static int number(String option, String value) {
        try {
            return Integer.parseInt(require(option, value));
        } catch (NumberFormatException e) {
            System.err.println(option + " needs a number, not '" + value + "'");
            System.exit(2);
            return 0;
        }
    }

    private static String require(String option, String value) {
        if (value == null) {
            System.err.println(option + " needs a value");
            System.exit(2);
        }
        return value;
    }
}
