package dev.redsim.conformance.target;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * A real Redis Cluster started from the redis-server and redis-cli on PATH: N masters (and R replicas of each), every
 * node a {@link RedisServerTarget} with {@code cluster-enabled yes}, its cluster config file in its own temporary
 * directory and its bus port chosen free, joined and given slots by {@code redis-cli --cluster create}, and ready
 * once every node reports cluster_state:ok, describes the same slots and is linked with every other (polled,
 * bounded). Closing stops every node by its process and removes their directories.
 */
public final class RedisClusterTarget implements ClusterTarget {
    private static final long READY_TIMEOUT_MS = 30_000;

    private final List<RedisServerTarget> nodes;
    private final int masters;

    private RedisClusterTarget(List<RedisServerTarget> nodes, int masters) {
        this.nodes = nodes;
        this.masters = masters;
    }

    /** Whether a real cluster can be started here: redis-server and redis-cli are on PATH. */
    public static boolean available() {
        return RedisServerTarget.available() && executable("redis-cli") != null;
    }

    /** Starts {@code masters} masters, each with {@code replicasPerMaster} replicas, and waits until it is ready. */
    public static RedisClusterTarget start(int masters, int replicasPerMaster) {
        return start(masters, replicasPerMaster, new String[0]);
    }

    /**
     * As {@link #start(int, int)}, every node started with more options for redis-server (a short
     * "--cluster-node-timeout" for a test that kills a node and waits for its replica to take over).
     */
    public static RedisClusterTarget start(int masters, int replicasPerMaster, String... nodeOptions) {
        if (masters < 3) {
            // redis-cli --cluster create refuses fewer than three masters
            throw new IllegalArgumentException("a Redis Cluster needs at least 3 masters: " + masters);
        }
        Path cli = executable("redis-cli");
        if (cli == null) {
            throw new IllegalStateException("redis-cli is not on PATH (apt-get install redis-tools)");
        }
        List<RedisServerTarget> started = new ArrayList<>();
        try {
            int total = masters * (1 + replicasPerMaster);
            for (int i = 0; i < total; i++) {
                started.add(RedisServerTarget.start(port -> {
                    List<String> options = new ArrayList<>(List.of("--cluster-enabled", "yes",
                            "--cluster-config-file", "nodes.conf", "--cluster-port", Integer.toString(busPort(port))));
                    options.addAll(List.of(nodeOptions));
                    return options.toArray(new String[0]);
                }));
            }
            RedisClusterTarget created = new RedisClusterTarget(List.copyOf(started), masters);
            created.create(cli, replicasPerMaster);
            created.awaitReady();
            return replicasPerMaster == 0 ? created
                    : new RedisClusterTarget(created.inRoleOrder(replicasPerMaster), masters);
        } catch (RuntimeException e) {
            started.forEach(RedisServerTarget::close);
            throw e;
        }
    }

    /** A free port for the cluster bus, other than the node's own (the usual port + 10000 may be taken or too high). */
    private static int busPort(int port) {
        for (int attempt = 0; attempt < 10; attempt++) {
            int candidate = RedisServerTarget.freePort();
            if (candidate != port) {
                return candidate;
            }
        }
        throw new IllegalStateException("no free port for the cluster bus");
    }

    private void create(Path cli, int replicasPerMaster) {
        List<String> command = new ArrayList<>(List.of(cli.toString(), "--cluster", "create"));
        for (RedisServerTarget node : nodes) {
            command.add(node.host() + ":" + node.port());
        }
        command.addAll(List.of("--cluster-replicas", Integer.toString(replicasPerMaster), "--cluster-yes"));
        File log = nodes.get(0).dir().resolve("cluster-create.log").toFile();
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
            if (!process.waitFor(READY_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("redis-cli --cluster create did not finish");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("redis-cli --cluster create failed: "
                        + Files.readString(log.toPath(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run redis-cli", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the cluster", e);
        }
    }

    /** Polls every node until all say cluster_state:ok, describe the same slot ranges and owners, and have their links. */
    private void awaitReady() {
        long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
        String last = "";
        while (System.currentTimeMillis() < deadline) {
            last = readiness();
            if (last == null) {
                return;
            }
            try {
                Thread.sleep(20); // a polling interval, not a wait for time to pass
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the cluster", e);
            }
        }
        throw new IllegalStateException("the cluster did not become ready: " + last);
    }

    /** Null when ready, otherwise what is not ready yet. */
    private String readiness() {
        Set<String> views = new TreeSet<>();
        for (RedisServerTarget node : nodes) {
            try (RespClient client = new RespClient(node.host(), node.port())) {
                String info = client.call("CLUSTER", "INFO").text();
                if (!info.contains("cluster_state:ok")) {
                    return node.port() + " not ok yet";
                }
                views.add(slotView(client.call("CLUSTER", "SLOTS")));
                // every node connected both ways with every other (the links come up after the state is ok)
                int links = client.call("CLUSTER", "LINKS").children().size();
                if (links != 2 * (nodes.size() - 1)) {
                    return node.port() + " has " + links + " cluster links yet";
                }
                // every node knows each replica as one (redis-cli's CLUSTER REPLICATE spreads by gossip)
                long knownMasters = client.call("CLUSTER", "NODES").text().lines()
                        .filter(line -> line.split(" ")[2].contains("master")).count();
                if (knownMasters != masters) {
                    return node.port() + " knows " + knownMasters + " masters yet";
                }
                // a replica is ready once it loaded its master's data and follows the stream
                String replication = client.call("INFO", "replication").text();
                if (replication.contains("role:slave") && !(replication.contains("master_link_status:up")
                        && replication.contains("master_sync_in_progress:0"))) {
                    return node.port() + " is still synchronising with its master";
                }
            }
        }
        return views.size() == 1 ? null : "nodes disagree about the slots: " + views;
    }

    /** A node's CLUSTER SLOTS as ranges, master and replicas (sorted: the replicas' order is the node's own). */
    private static String slotView(RespValue slots) {
        Set<String> ranges = new TreeSet<>();
        for (RespValue range : slots.children()) {
            List<RespValue> parts = range.children();
            StringBuilder line = new StringBuilder(parts.get(0).text() + "-" + parts.get(1).text() + " "
                    + parts.get(2).children().get(2).text());
            Set<String> replicas = new TreeSet<>();
            for (int i = 3; i < parts.size(); i++) {
                replicas.add(parts.get(i).children().get(2).text());
            }
            ranges.add(line.append(' ').append(replicas).toString());
        }
        return ranges.toString();
    }

    /**
     * The nodes as the simulated cluster orders them: the masters in slot order, then the replicas, those of the first
     * master first (redis-cli pairs replicas with masters in an order of its own).
     */
    private List<RedisServerTarget> inRoleOrder(int replicasPerMaster) {
        List<RedisServerTarget> ordered = new ArrayList<>(nodes.subList(0, masters));
        List<String> masterIds = new ArrayList<>();
        java.util.Map<String, RedisServerTarget> byAddress = new java.util.HashMap<>();
        for (RedisServerTarget node : nodes) {
            byAddress.put(node.host() + ":" + node.port(), node);
        }
        String text;
        try (RespClient client = new RespClient(nodes.get(0).host(), nodes.get(0).port())) {
            for (RedisServerTarget master : ordered) {
                try (RespClient own = new RespClient(master.host(), master.port())) {
                    masterIds.add(own.call("CLUSTER", "MYID").text());
                }
            }
            text = client.call("CLUSTER", "NODES").text();
        }
        for (String masterId : masterIds) {
            for (String line : text.split("\n")) {
                String[] fields = line.split(" ");
                if (fields.length > 3 && fields[2].contains("slave") && fields[3].equals(masterId)) {
                    ordered.add(byAddress.get(fields[1].substring(0, fields[1].indexOf('@'))));
                }
            }
        }
        if (ordered.size() != masters * (1 + replicasPerMaster) || ordered.contains(null)) {
            throw new IllegalStateException("the replicas did not pair with the masters as asked: " + text);
        }
        return List.copyOf(ordered);
    }

    private static Path executable(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /**
     * Every node: the masters first as redis-cli --cluster create took them (it makes the first N the masters), then
     * the replicas, those of the first master first.
     */
    @Override
    public List<RedisTarget> nodes() {
        return List.copyOf(nodes);
    }

    @Override
    public String name() {
        return "redis-cluster";
    }

    /**
     * Kills node {@code index} of {@link #nodes()} as a crash does (SIGKILL to its redis-server, by the PID this kit
     * started): no shutdown, no goodbye to the other nodes, which must find out by their own timeouts.
     */
    public void kill(int index) {
        nodes.get(index).kill();
    }

    /** The masters: the first N nodes, which redis-cli gave the slots in that order (node 0 serves slot 0). */
    @Override
    public List<RedisTarget> masters() {
        return List.copyOf(nodes.subList(0, masters));
    }

    @Override
    public void close() {
        for (RedisServerTarget node : nodes) {
            node.close();
        }
    }
}
