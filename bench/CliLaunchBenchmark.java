import java.io.File;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Process launch to first PONG: redis-server and the simulator's command-line launcher (bin/redsim-server), each
 * started as its own process on a free port of 127.0.0.1, polled with PING until it answers, then stopped (by its
 * PID, SIGTERM). Prints the first launch and the median of the runs for both, side by side, from one run.
 *
 *   java bench/CliLaunchBenchmark.java [runs] [-- launcher command...]
 *
 * The launcher defaults to bin/redsim-server; any other command line (e.g. {@code java -jar
 * simulator/target/redsim-simulator.jar}) can follow "--" to compare JVM settings; "--port N" is appended.
 */
public class CliLaunchBenchmark {
    public static void main(String[] args) throws Exception {
        int runs = 11;
        List<String> simulator = List.of("bin/redsim-server");
        int dashes = Arrays.asList(args).indexOf("--");
        if (args.length > 0 && dashes != 0) {
            runs = Integer.parseInt(args[0]);
        }
        if (dashes >= 0) {
            simulator = Arrays.asList(args).subList(dashes + 1, args.length);
        }
        double[] redis = new double[runs];
        double[] sim = new double[runs];
        for (int i = 0; i < runs; i++) { // alternate, so both see the same machine
            redis[i] = launchToPong(List.of("redis-server", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                    "--loglevel", "warning"));
            sim[i] = launchToPong(simulator);
        }
        System.out.printf("process launch to first PONG over %d launches (%s)%n", runs, String.join(" ", simulator));
        System.out.printf("%-14s%12s%12s%12s%n", "", "first ms", "median ms", "max ms");
        print("redis-server", redis);
        print("simulator", sim);
    }

    private static void print(String name, double[] times) {
        double first = times[0];
        double[] sorted = times.clone();
        Arrays.sort(sorted);
        System.out.printf("%-14s%12.1f%12.1f%12.1f%n", name, first, sorted[sorted.length / 2], sorted[sorted.length - 1]);
    }

    private static double launchToPong(List<String> command) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        List<String> full = new ArrayList<>(command);
        full.add("--port");
        full.add(Integer.toString(port));
        ProcessBuilder builder = new ProcessBuilder(full).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).directory(new File("."));
        long started = System.nanoTime();
        Process process = builder.start();
        try {
            long deadline = started + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                if (pong(port)) {
                    return (System.nanoTime() - started) / 1e6;
                }
                if (!process.isAlive()) {
                    throw new IllegalStateException(full + " exited with " + process.exitValue());
                }
                Thread.sleep(1); // polling, not spinning: the server being measured needs both cores
            }
            throw new IllegalStateException(full + " did not answer PING within 30 s");
        } finally {
            process.destroy(); // SIGTERM to this PID only
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    private static boolean pong(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes());
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] reply = in.readNBytes(7);
            return reply.length == 7 && reply[1] == 'P';
        } catch (java.io.IOException notYet) {
            return false;
        }
    }
}
