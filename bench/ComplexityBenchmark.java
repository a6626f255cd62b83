import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the cost of a call grows with the data (issue 20): the same data at three sizes, 1x, 10x and 100x (keys in
 * a database; elements of a list, hash, set, sorted set and stream), on a real redis-server and on the simulator,
 * each its own process (bench/complexity.sh starts both). For each command it prints the median latency of one
 * call at each size on both servers, and how much it grew from 1x to 100x: a command whose growth on the
 * simulator is far above redis-server's has the wrong complexity.
 *
 * <p>Latency is a round trip from this client (tens of microseconds on loopback), so O(1) and O(log N) commands
 * show flat curves on both; what the table is for is the O(N)-instead-of-O(1) kind of defect. Destructive
 * commands (DEL, UNLINK of big values, FLUSHALL) are timed on copies made for them, a few times each.
 *
 *   java bench/ComplexityBenchmark.java REDIS_PORT SIM_PORT [base keys] [base elements]
 */
public class ComplexityBenchmark {
    /** Each non-destructive command is timed this many times per size; the median is printed. */
    private static final int REPEATS = 31;
    private static final int DESTRUCTIVE_REPEATS = 3;
    private static final int[] GROWTH = {1, 10, 100};

    public static void main(String[] args) throws Exception {
        int redisPort = Integer.parseInt(args[0]);
        int simPort = Integer.parseInt(args[1]);
        int baseKeys = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
        int baseElements = args.length > 3 ? Integer.parseInt(args[3]) : 10_000;
        Map<String, double[][]> results = new LinkedHashMap<>();
        try (Client redis = new Client(redisPort); Client sim = new Client(simPort)) {
            Client[] servers = {redis, sim};
            // A warm-up round at the smallest size, not printed: the simulator's JIT compiles what the table times.
            for (int s = 0; s < 2; s++) {
                servers[s].call("FLUSHALL");
                fill(servers[s], baseKeys, baseElements);
                measure(servers[s], s, 0, baseKeys, baseElements, new LinkedHashMap<>());
            }
            for (int g = 0; g < GROWTH.length; g++) {
                int keys = baseKeys * GROWTH[g];
                int elements = baseElements * GROWTH[g];
                System.err.printf("size %dx: %,d keys, %,d elements per collection%n", GROWTH[g], keys, elements);
                for (Client c : servers) {
                    c.call("FLUSHALL");
                    fill(c, keys, elements);
                }
                for (int s = 0; s < 2; s++) {
                    measure(servers[s], s, g, keys, elements, results);
                }
            }
        }
        print(results, baseKeys, baseElements);
    }

    // ---- the data ----

    private static void fill(Client c, int keys, int elements) throws IOException {
        int batch = 1000;
        for (int i = 0; i < keys; i += batch) {
            List<String> mset = new ArrayList<>(List.of("MSET"));
            for (int j = i; j < Math.min(keys, i + batch); j++) {
                mset.add(String.format("key:%012d", j));
                mset.add("v");
            }
            c.send(mset);
        }
        for (int i = 0; i < elements; i += batch) {
            int end = Math.min(elements, i + batch);
            List<String> rpush = new ArrayList<>(List.of("RPUSH", "list"));
            List<String> hset = new ArrayList<>(List.of("HSET", "hash"));
            List<String> sadd = new ArrayList<>(List.of("SADD", "set"));
            List<String> zadd = new ArrayList<>(List.of("ZADD", "zset"));
            List<String> zlex = new ArrayList<>(List.of("ZADD", "zlex"));
            for (int j = i; j < end; j++) {
                String m = String.format("m:%09d", j);
                rpush.add(m);
                hset.add(m);
                hset.add("v");
                sadd.add(m);
                zadd.add(Integer.toString(j));
                zadd.add(m);
                zlex.add("0");
                zlex.add(m);
            }
            c.send(rpush);
            c.send(hset);
            c.send(sadd);
            c.send(zadd);
            c.send(zlex);
            for (int j = i; j < end; j++) {
                c.send(List.of("XADD", "stream", "1-" + (j + 1), "f", "v"));
            }
        }
        c.drain();
    }

    // ---- the measurements ----

    private static void measure(Client c, int server, int size, int keys, int elements,
                                Map<String, double[][]> results) throws IOException {
        String mid = String.format("m:%09d", elements / 2);
        timed(results, server, size, "SCAN 0 COUNT 10", c, "SCAN", "0", "COUNT", "10");
        timed(results, server, size, "SCAN <middle> COUNT 10", c, "SCAN", middleCursor(c, "SCAN"), "COUNT", "10");
        timed(results, server, size, "HSCAN 0 COUNT 10", c, "HSCAN", "hash", "0", "COUNT", "10");
        timed(results, server, size, "HSCAN <middle> COUNT 10", c, "HSCAN", "hash", middleCursor(c, "HSCAN", "hash"),
                "COUNT", "10");
        timed(results, server, size, "SSCAN 0 COUNT 10", c, "SSCAN", "set", "0", "COUNT", "10");
        timed(results, server, size, "SSCAN <middle> COUNT 10", c, "SSCAN", "set", middleCursor(c, "SSCAN", "set"),
                "COUNT", "10");
        timed(results, server, size, "ZSCAN 0 COUNT 10", c, "ZSCAN", "zset", "0", "COUNT", "10");
        timed(results, server, size, "ZSCAN <middle> COUNT 10", c, "ZSCAN", "zset", middleCursor(c, "ZSCAN", "zset"),
                "COUNT", "10");
        timed(results, server, size, "RANDOMKEY", c, "RANDOMKEY");
        timed(results, server, size, "SRANDMEMBER set 10", c, "SRANDMEMBER", "set", "10");
        timed(results, server, size, "SRANDMEMBER set -10", c, "SRANDMEMBER", "set", "-10");
        timed(results, server, size, "ZRANDMEMBER zset 10", c, "ZRANDMEMBER", "zset", "10");
        timed(results, server, size, "ZRANDMEMBER zset -10", c, "ZRANDMEMBER", "zset", "-10");
        timed(results, server, size, "HRANDFIELD hash", c, "HRANDFIELD", "hash");
        timed(results, server, size, "HRANDFIELD hash 10", c, "HRANDFIELD", "hash", "10");
        timed(results, server, size, "HRANDFIELD hash -10 WITHVALUES", c, "HRANDFIELD", "hash", "-10", "WITHVALUES");
        timed(results, server, size, "LINDEX list <middle>", c, "LINDEX", "list", Integer.toString(elements / 2));
        timed(results, server, size, "LSET list <middle> x", c, "LSET", "list", Integer.toString(elements / 2), "x");
        timed(results, server, size, "ZRANGE zset <mid> <mid+9> (rank)", c, "ZRANGE", "zset",
                Integer.toString(elements / 2), Integer.toString(elements / 2 + 9));
        timed(results, server, size, "ZRANGE zset <mid> +inf BYSCORE LIMIT 0 10", c, "ZRANGE", "zset",
                Integer.toString(elements / 2), "+inf", "BYSCORE", "LIMIT", "0", "10");
        timed(results, server, size, "ZRANGE zlex [<mid> + BYLEX LIMIT 0 10", c, "ZRANGE", "zlex", "[" + mid, "+",
                "BYLEX", "LIMIT", "0", "10");
        timed(results, server, size, "XRANGE stream <mid> + COUNT 10", c, "XRANGE", "stream",
                "1-" + (elements / 2), "+", "COUNT", "10");
        timed(results, server, size, "SPOP set 10", c, "SPOP", "set", "10");
        timedOnce(results, server, size, "KEYS nomatch:*", c, DESTRUCTIVE_REPEATS, List.of(), "KEYS", "nomatch:*");
        for (String type : List.of("list", "hash", "set", "zset", "stream")) {
            for (String del : List.of("DEL", "UNLINK")) {
                timedOnce(results, server, size, del + " <big " + type + ">", c, DESTRUCTIVE_REPEATS,
                        List.of("COPY", type, type + ":copy", "REPLACE"), del, type + ":copy");
            }
        }
        timedOnce(results, server, size, "FLUSHALL ASYNC", c, 1, List.of(), "FLUSHALL", "ASYNC");
        // refill the keys alone for the synchronous FLUSHALL
        fill(c, keys, 0);
        timedOnce(results, server, size, "FLUSHALL (keys only)", c, 1, List.of(), "FLUSHALL");
    }

    /** A cursor from inside a scan: the one the server gives after a hundred calls from 0. */
    private static String middleCursor(Client c, String command, String... key) throws IOException {
        String cursor = "0";
        for (int i = 0; i < 100; i++) {
            List<String> call = new ArrayList<>(List.of(command));
            call.addAll(List.of(key));
            call.addAll(List.of(cursor, "COUNT", "10"));
            Object reply = c.call(call);
            String next = (String) ((List<?>) reply).get(0);
            if (next.equals("0")) {
                break;
            }
            cursor = next;
        }
        return cursor;
    }

    private static void timed(Map<String, double[][]> results, int server, int size, String name, Client c,
                              String... command) throws IOException {
        double[] micros = new double[REPEATS];
        for (int i = 0; i < REPEATS; i++) {
            long t0 = System.nanoTime();
            c.call(List.of(command));
            micros[i] = (System.nanoTime() - t0) / 1e3;
        }
        record(results, server, size, name, micros);
    }

    /** A destructive call, each time after {@code setup} (not timed) prepared what it destroys. */
    private static void timedOnce(Map<String, double[][]> results, int server, int size, String name, Client c,
                                  int repeats, List<String> setup, String... command) throws IOException {
        double[] micros = new double[repeats];
        for (int i = 0; i < repeats; i++) {
            if (!setup.isEmpty()) {
                c.call(setup);
            }
            long t0 = System.nanoTime();
            c.call(List.of(command));
            micros[i] = (System.nanoTime() - t0) / 1e3;
        }
        record(results, server, size, name, micros);
    }

    private static void record(Map<String, double[][]> results, int server, int size, String name, double[] micros) {
        Arrays.sort(micros);
        results.computeIfAbsent(name, n -> new double[2][GROWTH.length])[server][size] = micros[micros.length / 2];
    }

    private static void print(Map<String, double[][]> results, int baseKeys, int baseElements) {
        System.out.printf("Median latency of one call in microseconds (round trip on 127.0.0.1); sizes 1x / 10x / 100x =%n"
                + "%,d / %,d / %,d keys and %,d / %,d / %,d elements per collection. growth = 100x / 1x.%n%n",
                baseKeys, baseKeys * 10, baseKeys * 100, baseElements, baseElements * 10, baseElements * 100);
        System.out.printf("%-44s %10s %10s %10s %7s | %10s %10s %10s %7s%n", "command", "redis 1x", "10x", "100x",
                "growth", "sim 1x", "10x", "100x", "growth");
        for (Map.Entry<String, double[][]> e : results.entrySet()) {
            double[] r = e.getValue()[0];
            double[] s = e.getValue()[1];
            System.out.printf("%-44s %10.0f %10.0f %10.0f %6.1fx | %10.0f %10.0f %10.0f %6.1fx%n", e.getKey(),
                    r[0], r[1], r[2], r[2] / r[0], s[0], s[1], s[2], s[2] / s[0]);
        }
    }

    // ---- a minimal RESP2 client ----

    private static final class Client implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;
        private int pending;

        Client(int port) throws IOException {
            socket = new Socket("127.0.0.1", port);
            socket.setTcpNoDelay(true);
            out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
            in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        }

        Object call(String... args) throws IOException {
            return call(List.of(args));
        }

        Object call(List<String> args) throws IOException {
            drain();
            write(args);
            out.flush();
            Object reply = read();
            if (reply instanceof IOException e) {
                throw e;
            }
            return reply;
        }

        /** Pipelines a call; its reply is read (and checked) by {@link #drain}. */
        void send(List<String> args) throws IOException {
            write(args);
            pending++;
            if (pending >= 200) {
                drain();
            }
        }

        void drain() throws IOException {
            out.flush();
            while (pending > 0) {
                pending--;
                if (read() instanceof IOException e) {
                    throw e;
                }
            }
        }

        private void write(List<String> args) throws IOException {
            out.write(('*' + Integer.toString(args.size()) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (String a : args) {
                byte[] b = a.getBytes(StandardCharsets.UTF_8);
                out.write(('$' + Integer.toString(b.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(b);
                out.write('\r');
                out.write('\n');
            }
        }

        private Object read() throws IOException {
            int type = in.read();
            String line = line();
            switch (type) {
                case '+', ':':
                    return line;
                case '-':
                    return new IOException("server error: " + line);
                case '$': {
                    int n = Integer.parseInt(line);
                    if (n < 0) {
                        return null;
                    }
                    byte[] b = in.readNBytes(n + 2);
                    return new String(b, 0, n, StandardCharsets.UTF_8);
                }
                case '*': {
                    int n = Integer.parseInt(line);
                    List<Object> items = new ArrayList<>(Math.max(0, n));
                    for (int i = 0; i < n; i++) {
                        items.add(read());
                    }
                    return items;
                }
                default:
                    throw new IOException("unexpected reply type " + type);
            }
        }

        private String line() throws IOException {
            StringBuilder sb = new StringBuilder();
            int ch;
            while ((ch = in.read()) != '\r') {
                if (ch < 0) {
                    throw new IOException("connection closed");
                }
                sb.append((char) ch);
            }
            in.read();
            return sb.toString();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
