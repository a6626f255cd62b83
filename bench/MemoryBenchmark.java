import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Memory footprint of one data shape (issue 20) on a real redis-server and on the simulator's command line, each a
 * fresh process that bench/memory.sh started for this shape only: the resident size (VmRSS) and INFO's
 * used_memory of the empty server and after the load, and what the load added per key, side by side with the
 * ratio simulator / redis-server.
 *
 * <p>The shapes are Redis's small and large encodings of each type: 1,000,000 small strings (SET key:%012d VXK),
 * and hashes, sets, sorted sets and lists of 5 elements (200,000 keys: listpack, intset-free strings) and of 1,000
 * elements (1,000 keys: hashtable, skiplist, quicklist). Traffic is pipelined, to 127.0.0.1 only.
 *
 *   java bench/MemoryBenchmark.java --header
 *   java bench/MemoryBenchmark.java SHAPE REDIS_PORT REDIS_PID SIM_PORT SIM_PID
 */
public class MemoryBenchmark {
    /** Commands in flight before their replies are read. */
    private static final int PIPELINE = 1000;

    private record Shape(String name, int keys, int elements) {}

    private static final List<Shape> SHAPES = List.of(
            new Shape("strings", 1_000_000, 1),
            new Shape("hash-small", 200_000, 5), new Shape("hash-large", 1_000, 1_000),
            new Shape("set-small", 200_000, 5), new Shape("set-large", 1_000, 1_000),
            new Shape("zset-small", 200_000, 5), new Shape("zset-large", 1_000, 1_000),
            new Shape("list-small", 200_000, 5), new Shape("list-large", 1_000, 1_000));

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("--header")) {
            System.out.printf("%-11s %9s | %-29s | %-29s | %-23s | %-23s%n", "", "",
                    "RSS after load, MB", "used_memory after load, MB", "RSS added, bytes/key",
                    "used_memory, bytes/key");
            System.out.printf("%-11s %9s | %9s %9s %9s | %9s %9s %9s | %7s %7s %7s | %7s %7s %7s%n", "shape", "keys",
                    "redis", "sim", "ratio", "redis", "sim", "ratio", "redis", "sim", "ratio", "redis", "sim", "ratio");
            return;
        }
        if (args.length == 1 && args[0].equals("--shapes")) {
            SHAPES.forEach(s -> System.out.println(s.name()));
            return;
        }
        Shape shape = SHAPES.stream().filter(s -> s.name().equals(args[0])).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown shape " + args[0] + "; shapes: " + SHAPES));
        Measured redis = measure(shape, Integer.parseInt(args[1]), Long.parseLong(args[2]));
        Measured sim = measure(shape, Integer.parseInt(args[3]), Long.parseLong(args[4]));
        double mb = 1024.0 * 1024.0;
        System.out.printf("%-11s %,9d | %9.1f %9.1f %9.2f | %9.1f %9.1f %9.2f | %7d %7d %7.2f | %7d %7d %7.2f%n",
                shape.name(), shape.keys(),
                redis.rssAfter / mb, sim.rssAfter / mb, (double) sim.rssAfter / redis.rssAfter,
                redis.usedAfter / mb, sim.usedAfter / mb, (double) sim.usedAfter / redis.usedAfter,
                redis.rssPerKey(shape), sim.rssPerKey(shape), (double) sim.rssPerKey(shape) / redis.rssPerKey(shape),
                redis.usedPerKey(shape), sim.usedPerKey(shape),
                (double) sim.usedPerKey(shape) / redis.usedPerKey(shape));
    }

    private record Measured(long rssBefore, long rssAfter, long usedBefore, long usedAfter) {
        long rssPerKey(Shape s) {
            return (rssAfter - rssBefore) / s.keys();
        }

        long usedPerKey(Shape s) {
            return (usedAfter - usedBefore) / s.keys();
        }
    }

    private static Measured measure(Shape shape, int port, long pid) throws Exception {
        try (Client c = new Client(port)) {
            long rssBefore = rss(pid);
            long usedBefore = usedMemory(c);
            load(c, shape);
            // Let the servers finish what follows a load: Redis's background frees, the JVM's compilers and a collector
            // that gives memory back on its own after an idle second (G1's periodic collection, if it is chosen).
            Thread.sleep(3000);
            return new Measured(rssBefore, rss(pid), usedBefore, usedMemory(c));
        }
    }

    private static void load(Client c, Shape shape) throws IOException {
        String type = shape.name().substring(0, shape.name().indexOf('-') < 0 ? shape.name().length()
                : shape.name().indexOf('-'));
        for (int k = 0; k < shape.keys(); k++) {
            String key = String.format("key:%012d", k);
            if (type.equals("strings")) {
                c.send(List.of("SET", key, "VXK"));
                continue;
            }
            // big collections go in slices so that no command is huge; small ones in one command each
            for (int from = 0; from < shape.elements(); from += 100) {
                int to = Math.min(shape.elements(), from + 100);
                List<String> command = new ArrayList<>();
                switch (type) {
                    case "hash" -> command.addAll(List.of("HSET", key));
                    case "set" -> command.addAll(List.of("SADD", key));
                    case "zset" -> command.addAll(List.of("ZADD", key));
                    case "list" -> command.addAll(List.of("RPUSH", key));
                    default -> throw new IllegalArgumentException(type);
                }
                for (int e = from; e < to; e++) {
                    switch (type) {
                        case "hash" -> command.addAll(List.of("field:" + e, "value:" + e));
                        case "zset" -> command.addAll(List.of(Integer.toString(e), "member:" + e));
                        default -> command.add("element:" + e);
                    }
                }
                c.send(command);
            }
        }
        c.drain();
    }

    /** The process's resident set (VmRSS of /proc/PID/status), in bytes. */
    private static long rss(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IOException("no VmRSS for " + pid);
    }

    private static long usedMemory(Client c) throws IOException {
        String info = (String) c.call(List.of("INFO", "memory"));
        for (String line : info.split("\r\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()));
            }
        }
        throw new IOException("no used_memory in INFO");
    }

    /** A minimal RESP client: pipelined sends, replies read back and checked for errors. */
    private static final class Client implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;
        private int pending;

        Client(int port) throws IOException {
            socket = new Socket("127.0.0.1", port);
            out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
            in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        }

        Object call(List<String> args) throws IOException {
            drain();
            write(args);
            out.flush();
            return read();
        }

        void send(List<String> args) throws IOException {
            write(args);
            if (++pending >= PIPELINE) {
                drain();
            }
        }

        void drain() throws IOException {
            out.flush();
            for (; pending > 0; pending--) {
                read();
            }
        }

        private void write(List<String> args) throws IOException {
            out.write(('*' + Integer.toString(args.size()) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (String a : args) {
                byte[] b = a.getBytes(StandardCharsets.UTF_8);
                out.write(('$' + Integer.toString(b.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(b);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
        }

        private Object read() throws IOException {
            int type = in.read();
            String line = line();
            switch (type) {
                case '+', ':' -> {
                    return line;
                }
                case '-' -> throw new IOException("server error: " + line);
                case '$' -> {
                    int n = Integer.parseInt(line);
                    if (n < 0) {
                        return null;
                    }
                    byte[] b = in.readNBytes(n + 2);
                    return new String(b, 0, n, StandardCharsets.UTF_8);
                }
                case '*' -> {
                    int n = Integer.parseInt(line);
                    List<Object> items = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        items.add(read());
                    }
                    return items;
                }
                default -> throw new IOException("unexpected reply type " + (char) type);
            }
        }

        private String line() throws IOException {
            StringBuilder s = new StringBuilder();
            for (int b = in.read(); b != '\r'; b = in.read()) {
                if (b < 0) {
                    throw new IOException("connection closed");
                }
                s.append((char) b);
            }
            in.read();
            return s.toString();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
