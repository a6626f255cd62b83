package dev.redsim.conformance.target;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real redis-server started from PATH on a free port of 127.0.0.1, saving nothing to disk, and killed on
 * close or when the JVM exits. One of another major.minor than the version under test is refused
 * ({@link ReferenceVersion}).
 */
public final class RedisServerTarget implements RedisTarget {
    private static final long START_TIMEOUT_MS = 10_000;

    /**
     * Runs redis-server under a small shell that stops it when asked (SIGTERM) and also when the JVM that
     * started it is gone, even killed with SIGKILL, when no shutdown hook runs: it checks twice a second that
     * the JVM (its first argument) is alive. The remaining arguments are the redis-server command.
     */
    private static final String WATCHDOG = "jvm=$1; shift; \"$@\" & child=$!; "
            + "trap 'kill $child 2>/dev/null; wait $child; exit 0' TERM INT; "
            + "while kill -0 $jvm 2>/dev/null && kill -0 $child 2>/dev/null; do sleep 0.5 & wait $!; done; "
            + "kill $child 2>/dev/null; wait $child";

    private final Process process;
    private final int port;
    private final Path dir;
    private final Thread killer;

    private RedisServerTarget(Process process, int port, Path dir) {
        this.process = process;
        this.port = port;
        this.dir = dir;
        // SIGTERM, not SIGKILL: the watchdog shell then stops redis-server before it exits
        this.killer = new Thread(process::destroy, "redis-server-killer");
        Runtime.getRuntime().addShutdownHook(killer);
    }

    /** The redis-server executable on PATH, if any. */
    public static Optional<Path> findExecutable() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "redis-server");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    public static boolean available() {
        return findExecutable().isPresent();
    }

    /** Starts a redis-server; fails if there is none on PATH or it does not answer in time. */
    public static RedisServerTarget start() {
        return start(new String[0]);
    }

    /** As {@link #start()}, with more options for redis-server ("--aclfile", "/tmp/users.acl"). */
    public static RedisServerTarget start(String... options) {
        return start(port -> options);
    }

    /**
     * As {@link #start(String...)}, with options that depend on the port chosen (a cluster node's bus port must be
     * free as well, so the cluster target chooses it per attempt).
     */
    static RedisServerTarget start(java.util.function.IntFunction<String[]> optionsForPort) {
        Path executable = findExecutable()
                .orElseThrow(() -> new IllegalStateException("redis-server is not on PATH (apt-get install redis-server)"));
        IOException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            int port = freePort();
            try {
                Path dir = Files.createTempDirectory("redsim-redis-");
                List<String> command = new java.util.ArrayList<>(List.of("sh", "-c", WATCHDOG, "redsim-redis-watchdog",
                        Long.toString(ProcessHandle.current().pid()), executable.toString()));
                command.addAll(List.of("--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "",
                        "--appendonly", "no", "--daemonize", "no", "--dir", dir.toString(),
                        "--loglevel", "warning", "--logfile", ""));
                String[] extra = optionsForPort.apply(port);
                command.addAll(List.of(extra));
                Process process = new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(dir.resolve("redis.log").toFile())
                        .start();
                RedisServerTarget target = new RedisServerTarget(process, port, dir);
                if (target.awaitReady()) {
                    return checkedVersion(target, requirePass(extra));
                }
                target.close();
            } catch (IOException e) {
                last = e;
            }
        }
        throw new IllegalStateException("could not start redis-server", last);
    }

    /** The target, if its redis-server is the version under test's major.minor; closed and refused otherwise. */
    private static RedisServerTarget checkedVersion(RedisServerTarget target, String password) {
        try {
            ReferenceVersion.require(target, password);
            return target;
        } catch (RuntimeException refused) {
            target.close();
            throw refused;
        }
    }

    /** The value of a --requirepass option, or null: the version check must authenticate with it. */
    private static String requirePass(String[] options) {
        for (int i = 0; i + 1 < options.length; i++) {
            if (options[i].equals("--requirepass")) {
                return options[i + 1];
            }
        }
        return null;
    }

    private boolean awaitReady() {
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline && process.isAlive()) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                socket.getOutputStream().write("PING\r\n".getBytes());
                byte[] buf = new byte[7];
                int n = socket.getInputStream().read(buf);
                // +PONG; or -NOAUTH from a server started with --requirepass: it answers, so it is ready
                if (n > 0 && (buf[0] == '+' || n >= 7 && new String(buf, 0, 7,
                        java.nio.charset.StandardCharsets.US_ASCII).equals("-NOAUTH"))) {
                    return true;
                }
            } catch (IOException notYet) {
                // not listening yet: wait for the process, without sleeping on a clock we could control
                try {
                    process.waitFor(20, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return false;
    }

    /**
     * Kills the redis-server at once (SIGKILL, by its PID: a crash, without SHUTDOWN's save or goodbyes) and waits,
     * bounded, until it is gone; the port then refuses connections. {@link #close()} still cleans up afterwards.
     */
    public void kill() {
        List<ProcessHandle> servers = process.descendants().toList();
        if (servers.isEmpty()) {
            throw new IllegalStateException("no redis-server runs under this target");
        }
        for (ProcessHandle server : servers) {
            server.destroyForcibly();
        }
        for (ProcessHandle server : servers) {
            try {
                server.onExit().get(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while killing redis-server", e);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                throw new IllegalStateException("redis-server did not die", e);
            }
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port", e);
        }
    }

    /** This server's temporary directory (its --dir), removed on close. */
    Path dir() {
        return dir;
    }

    @Override
    public String name() {
        return "redis-server";
    }

    @Override
    public String host() {
        return "127.0.0.1";
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public void close() {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            children.forEach(ProcessHandle::destroyForcibly); // normally gone already, with the watchdog
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killer);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
        deleteQuietly(dir);
    }

    private static void deleteQuietly(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp dir left behind is harmless
        }
    }
}
