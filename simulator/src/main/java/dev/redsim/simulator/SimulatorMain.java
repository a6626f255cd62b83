package dev.redsim.simulator;

import dev.redsim.simulator.version.RedisVersion;

import java.time.Duration;

/**
 * The command line: {@code java -jar redsim-simulator.jar [--port N] [--bind ADDR] [--requirepass PASS]}.
 * Prints a ready line as redis-server does and stops cleanly on SIGINT/SIGTERM.
 */
public final class SimulatorMain {
    private SimulatorMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        RedisSimulator.Builder builder = RedisSimulator.builder().port(6379);
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (arg) {
                case "--port" -> builder.port(number(arg, value));
                case "--bind" -> builder.bind(require(arg, value));
                case "--requirepass" -> builder.password(require(arg, value));
                case "--databases" -> builder.databases(number(arg, value));
                case "--help", "-h" -> {
                    System.out.println("usage: java -jar redsim-simulator.jar [--port N (6379; 0 = any free port)] "
                            + "[--bind ADDR (127.0.0.1)] [--requirepass PASS] [--databases N (16)] [--<redis config parameter> VALUE ...]");
                    return;
                }
                default -> {
                    // like redis-server, any configuration parameter: --notify-keyspace-events KEA
                    if (!arg.startsWith("--") || value == null) {
                        System.err.println("unknown option " + arg + " (try --help)");
                        System.exit(2);
                    }
                    builder.config(arg.substring(2), value);
                }
            }
            i++;
        }
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
