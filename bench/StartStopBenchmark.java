import dev.redsim.simulator.RedisSimulator;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.Arrays;

/**
 * Start-to-first-PONG and stop of an in-process simulator, as a test suite would see them: the first start in fresh
 * JVMs (class loading included: a child JVM per run that runs nothing but a start and a PING, median and range of
 * {@code freshRuns}), then in this JVM the median and worst of many further starts; then, in the same run,
 * redis-server's process launch to first PONG and its stop (SIGTERM to its PID until it exits), the peer figure.
 * (This JVM's own first start is printed too, but this JVM compiled the benchmark first, which loaded and warmed much
 * of what a start needs: the fresh JVMs' figure is the one to quote.)
 *
 *   java -cp simulator/target/redsim-simulator.jar bench/StartStopBenchmark.java [runs] [freshRuns]
 */
public class StartStopBenchmark {
    /** What each fresh JVM runs: a start, a PING, the time between, printed in milliseconds. */
    private static final String FRESH_PROBE = """
            public class FreshStart {
                public static void main(String[] args) throws Exception {
                    long t0 = System.nanoTime();
                    dev.redsim.simulator.RedisSimulator simulator = dev.redsim.simulator.RedisSimulator.start();
                    try (java.net.Socket socket = new java.net.Socket(simulator.host(), simulator.port())) {
                        socket.getOutputStream().write("PING\\r\\n".getBytes());
                        if (socket.getInputStream().readNBytes(7).length != 7) {
                            throw new IllegalStateException("no PONG");
                        }
                    }
                    System.out.println((System.nanoTime() - t0) / 1e6);
                    simulator.close();
                }
            }
            """;

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        int freshRuns = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        freshStarts(freshRuns);
        double[] start = new double[runs];
        double[] stop = new double[runs];
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            RedisSimulator simulator = RedisSimulator.start();
            ping(simulator);
            long t1 = System.nanoTime();
            simulator.close();
            long t2 = System.nanoTime();
            start[i] = (t1 - t0) / 1e6;
            stop[i] = (t2 - t1) / 1e6;
        }
        System.out.printf("this JVM's first start to PONG: %.1f ms (after compiling the benchmark), first stop: %.1f ms%n",
                start[0], stop[0]);
        double[] s = Arrays.copyOfRange(start, 1, runs);
        double[] c = Arrays.copyOfRange(stop, 1, runs);
        Arrays.sort(s);
        Arrays.sort(c);
        System.out.printf("next %d starts to PONG: median %.2f ms, max %.2f ms; stops: median %.2f ms, max %.2f ms%n",
                runs - 1, s[s.length / 2], s[s.length - 1], c[c.length / 2], c[c.length - 1]);
        redisServer(Math.min(runs, 11));
    }

    /** The first start in {@code runs} fresh JVMs, each running the probe alone. */
    private static void freshStarts(int runs) throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("redsim-fresh-start");
        java.nio.file.Path source = dir.resolve("FreshStart.java");
        java.nio.file.Files.writeString(source, FRESH_PROBE);
        String classPath = System.getProperty("java.class.path");
        int compiled = javax.tools.ToolProvider.getSystemJavaCompiler()
                .run(null, null, null, "-cp", classPath, "-d", dir.toString(), source.toString());
        if (compiled != 0) {
            throw new IllegalStateException("the probe did not compile");
        }
        String javaCommand = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
        double[] starts = new double[runs];
        for (int i = 0; i < runs; i++) {
            Process child = new ProcessBuilder(javaCommand, "-cp", classPath + java.io.File.pathSeparator + dir, "FreshStart")
                    .redirectErrorStream(true).start();
            String out = new String(child.getInputStream().readAllBytes()).trim();
            if (child.waitFor() != 0) {
                throw new IllegalStateException("fresh start failed: " + out);
            }
            starts[i] = Double.parseDouble(out);
        }
        Arrays.sort(starts);
        System.out.printf("first start to PONG in %d fresh JVMs: median %.1f ms (%.1f-%.1f)%n", runs,
                starts[runs / 2], starts[0], starts[runs - 1]);
    }

    /** redis-server on a free port of 127.0.0.1: launch to first PONG and stop, medians of {@code runs}. */
    private static void redisServer(int runs) throws Exception {
        double[] start = new double[runs];
        double[] stop = new double[runs];
        for (int i = 0; i < runs; i++) {
            int port;
            try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
                port = free.getLocalPort();
            }
            long t0 = System.nanoTime();
            Process process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no", "--loglevel", "warning")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            try {
                while (!pong(port)) {
                    if (!process.isAlive() || System.nanoTime() - t0 > 30_000_000_000L) {
                        throw new IllegalStateException("redis-server did not answer PING");
                    }
                    Thread.sleep(1); // polling, not spinning: the server measured needs the cores
                }
                long t1 = System.nanoTime();
                process.destroy(); // SIGTERM to this PID only
                process.waitFor();
                start[i] = (t1 - t0) / 1e6;
                stop[i] = (System.nanoTime() - t1) / 1e6;
            } finally {
                process.destroyForcibly();
            }
        }
        Arrays.sort(start);
        Arrays.sort(stop);
        System.out.printf("redis-server (%d launches): launch to PONG median %.1f ms, stop median %.1f ms%n",
                runs, start[runs / 2], stop[runs / 2]);
    }

    private static boolean pong(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.getOutputStream().write("PING\r\n".getBytes());
            byte[] reply = socket.getInputStream().readNBytes(7);
            return reply.length == 7 && reply[1] == 'P';
        } catch (java.io.IOException notYet) {
            return false;
        }
    }

    private static void ping(RedisSimulator simulator) throws Exception {
        try (Socket socket = new Socket(simulator.host(), simulator.port())) {
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes());
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] reply = new byte[7];
            int n = in.readNBytes(reply, 0, 7);
            if (n != 7 || reply[1] != 'P') {
                throw new IllegalStateException("no PONG");
            }
        }
    }
}
