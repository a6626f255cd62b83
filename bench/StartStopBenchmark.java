import dev.redsim.simulator.RedisSimulator;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.Arrays;

/**
 * Start-to-first-PONG and stop of an in-process simulator, as a test suite would see them: the first start
 * in a fresh JVM (class loading included), then the median and worst of many further starts; then, in the same run,
 * redis-server's process launch to first PONG and its stop (SIGTERM to its PID until it exits), the peer figure.
 *
 *   java -cp simulator/target/redsim-simulator.jar bench/StartStopBenchmark.java [runs]
 */
public class StartStopBenchmark {
    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 50;
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
        System.out.printf("first start to PONG: %.1f ms (fresh JVM, classes loading), first stop: %.1f ms%n", start[0], stop[0]);
        double[] s = Arrays.copyOfRange(start, 1, runs);
        double[] c = Arrays.copyOfRange(stop, 1, runs);
        Arrays.sort(s);
        Arrays.sort(c);
        System.out.printf("next %d starts to PONG: median %.2f ms, max %.2f ms; stops: median %.2f ms, max %.2f ms%n",
                runs - 1, s[s.length / 2], s[s.length - 1], c[c.length / 2], c[c.length - 1]);
        redisServer(Math.min(runs, 11));
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
