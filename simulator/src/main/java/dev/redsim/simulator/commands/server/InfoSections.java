package dev.redsim.simulator.commands.server;

import dev.redsim.simulator.engine.Config;
import dev.redsim.simulator.engine.Engine;
import dev.redsim.simulator.engine.ReplicaLink;
import dev.redsim.simulator.engine.Replication;
import dev.redsim.simulator.scripting.Scripting;
import dev.redsim.simulator.version.RedisVersion;
import dev.redsim.simulator.engine.InstantaneousMetric;
import dev.redsim.simulator.engine.LatencyHistogram;
import dev.redsim.simulator.engine.LatencyMonitor;
import dev.redsim.simulator.engine.PubSub;
import dev.redsim.simulator.engine.Stats;
import dev.redsim.simulator.keyspace.Database;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The text of each INFO section, with the field names Redis 7.0 uses. Values come from the engine where the
 * simulator has them (clients, keyspace, stats, time), from the JVM for memory and CPU, and are Redis's idle
 * values for what the simulator does not do (persistence in progress, replication, AOF).
 */
final class InfoSections {
    private final Engine engine;
    private final Scripting scripting;
    private final Config config;
    private final Stats stats;

    InfoSections(Engine engine, Scripting scripting) {
        this.engine = engine;
        this.scripting = scripting;
        this.config = engine.config();
        this.stats = engine.stats();
    }

    void append(String section, StringBuilder out) {
        switch (section) {
            case "server" -> server(out);
            case "clients" -> clients(out);
            case "memory" -> memory(out);
            case "persistence" -> persistence(out);
            case "stats" -> stats(out);
            case "replication" -> replication(out);
            case "cpu" -> cpu(out);
            case "modules" -> out.append("# Modules\r\n");
            case "commandstats" -> commandStats(out);
            case "errorstats" -> errorStats(out);
            case "latencystats" -> latencyStats(out);
            case "cluster" -> out.append("# Cluster\r\n").append("cluster_enabled:").append(clusterEnabled() ? 1 : 0)
                    .append("\r\n");
            case "keyspace" -> keyspace(out);
            default -> throw new IllegalArgumentException(section);
        }
    }

    private boolean clusterEnabled() {
        return "yes".equals(engine.config().get("cluster-enabled"));
    }

    private static void field(StringBuilder out, String name, Object value) {
        out.append(name).append(':').append(value).append("\r\n");
    }

    private void server(StringBuilder out) {
        long micros = engine.time().micros();
        long uptime = (engine.time().millis() - engine.startMillis()) / 1000;
        out.append("# Server\r\n");
        field(out, "redis_version", RedisVersion.IMITATED.version());
        field(out, "redis_git_sha1", "00000000");
        field(out, "redis_git_dirty", 0);
        field(out, "redis_build_id", "0");
        field(out, "redis_mode", clusterEnabled() ? "cluster" : "standalone");
        field(out, "os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        field(out, "arch_bits", System.getProperty("os.arch", "").contains("64") ? 64 : 32);
        field(out, "monotonic_clock", "POSIX clock_gettime");
        field(out, "multiplexing_api", "epoll");
        field(out, "atomicvar_api", "c11-builtin");
        field(out, "gcc_version", "0.0.0");
        field(out, "process_id", ProcessHandle.current().pid());
        field(out, "process_supervised", "no");
        field(out, "run_id", engine.runId());
        field(out, "tcp_port", engine.port());
        field(out, "server_time_usec", micros);
        field(out, "uptime_in_seconds", uptime);
        field(out, "uptime_in_days", uptime / 86400);
        field(out, "hz", config.get("hz"));
        field(out, "configured_hz", config.get("hz"));
        // Redis's LRU clock: seconds, on 24 bits.
        field(out, "lru_clock", (micros / 1_000_000) & ((1 << 24) - 1));
        field(out, "executable", "");
        field(out, "config_file", "");
        field(out, "io_threads_active", 0);
    }

    private void clients(StringBuilder out) {
        out.append("# Clients\r\n");
        field(out, "connected_clients", engine.clients().size());
        field(out, "cluster_connections", 0);
        field(out, "maxclients", config.get("maxclients"));
        field(out, "client_recent_max_input_buffer", 0);
        field(out, "client_recent_max_output_buffer", 0);
        field(out, "blocked_clients", engine.blockedClients().count());
        field(out, "tracking_clients", engine.tracking().trackingClients());
        field(out, "clients_in_timeout_table", engine.blockedClients().countWithTimeout());
    }

    /**
     * used_memory is the engine's estimate of what Redis would allocate for the same keys and clients (decision
     * 0011), which maxmemory is enforced against; the resident size is the JVM's.
     */
    private void memory(StringBuilder out) {
        Runtime rt = Runtime.getRuntime();
        long used = engine.usedMemory();
        long peak = engine.usedMemoryPeak();
        long startup = Engine.STARTUP_MEMORY;
        long clients = engine.clientsMemory();
        long overhead = startup + clients;
        long dataset = Math.max(0, used - overhead);
        long maxmemory = config.getLong("maxmemory");
        long system = rt.maxMemory() == Long.MAX_VALUE ? rt.totalMemory() : rt.maxMemory();
        out.append("# Memory\r\n");
        field(out, "used_memory", used);
        field(out, "used_memory_human", human(used));
        field(out, "used_memory_rss", rt.totalMemory());
        field(out, "used_memory_rss_human", human(rt.totalMemory()));
        field(out, "used_memory_peak", peak);
        field(out, "used_memory_peak_human", human(peak));
        field(out, "used_memory_peak_perc", percent(used, peak));
        field(out, "used_memory_overhead", overhead);
        field(out, "used_memory_startup", startup);
        field(out, "used_memory_dataset", dataset);
        field(out, "used_memory_dataset_perc", percent(dataset, used - startup));
        field(out, "total_system_memory", system);
        field(out, "total_system_memory_human", human(system));
        scripting(out);
        field(out, "maxmemory", maxmemory);
        field(out, "maxmemory_human", human(maxmemory));
        field(out, "maxmemory_policy", config.get("maxmemory-policy"));
        field(out, "mem_fragmentation_ratio", String.format(Locale.ROOT, "%.2f",
                used == 0 ? 1.0 : (double) rt.totalMemory() / used));
        field(out, "mem_not_counted_for_evict", 0);
        field(out, "mem_clients_slaves", 0);
        field(out, "mem_clients_normal", clients);
        field(out, "mem_allocator", "libc");
        field(out, "active_defrag_running", 0);
        field(out, "lazyfree_pending_objects", 0);
        field(out, "lazyfreed_objects", engine.stats().lazyfreedObjects);
    }

    /** Redis's "%.2f%%" of a part in a whole (0 when the whole is). */
    private static String percent(long part, long whole) {
        return String.format(Locale.ROOT, "%.2f%%", whole <= 0 ? 0.0 : (float) part * 100 / whole);
    }

    /**
     * Redis 7.0.15's script memory fields. The Lua heaps are not measured: a fresh Lua state's size stands in,
     * and script/function memory is estimated from the cached code.
     */
    private void scripting(StringBuilder out) {
        var functions = scripting.functions();
        long vmEval = 32768;
        long vmFunctions = 32768;
        long scriptsEval = scripting.cachedScriptBytes();
        long functionsMemory = functions.codeBytes();
        field(out, "used_memory_lua", vmEval);
        field(out, "used_memory_vm_eval", vmEval);
        field(out, "used_memory_lua_human", human(vmEval));
        field(out, "used_memory_scripts_eval", scriptsEval);
        field(out, "number_of_cached_scripts", scripting.cachedScripts());
        field(out, "number_of_functions", functions.functionCount());
        field(out, "number_of_libraries", functions.libraries().size());
        field(out, "used_memory_vm_functions", vmFunctions);
        field(out, "used_memory_vm_total", vmEval + vmFunctions);
        field(out, "used_memory_vm_total_human", human(vmEval + vmFunctions));
        field(out, "used_memory_functions", functionsMemory);
        field(out, "used_memory_scripts", scriptsEval + functionsMemory);
        field(out, "used_memory_scripts_human", human(scriptsEval + functionsMemory));
    }

    private void persistence(StringBuilder out) {
        out.append("# Persistence\r\n");
        field(out, "loading", 0);
        field(out, "async_loading", 0);
        field(out, "current_cow_peak", 0);
        field(out, "current_cow_size", 0);
        field(out, "current_cow_size_age", 0);
        field(out, "current_fork_perc", "0.00");
        field(out, "current_save_keys_processed", 0);
        field(out, "current_save_keys_total", 0);
        field(out, "rdb_changes_since_last_save", stats.dirty);
        field(out, "rdb_bgsave_in_progress", 0);
        field(out, "rdb_last_save_time", engine.lastSaveSeconds());
        field(out, "rdb_last_bgsave_status", "ok");
        field(out, "rdb_last_bgsave_time_sec", -1);
        field(out, "rdb_current_bgsave_time_sec", -1);
        field(out, "rdb_saves", stats.saves);
        field(out, "rdb_last_cow_size", 0);
        field(out, "rdb_last_load_keys_expired", 0);
        field(out, "rdb_last_load_keys_loaded", 0);
        field(out, "aof_enabled", 0);
        field(out, "aof_rewrite_in_progress", 0);
        field(out, "aof_rewrite_scheduled", 0);
        field(out, "aof_last_rewrite_time_sec", -1);
        field(out, "aof_current_rewrite_time_sec", -1);
        field(out, "aof_last_bgrewrite_status", "ok");
        field(out, "aof_rewrites", 0);
        field(out, "aof_rewrites_consecutive_failures", 0);
        field(out, "aof_last_write_status", "ok");
        field(out, "aof_last_cow_size", 0);
        field(out, "module_fork_in_progress", 0);
        field(out, "module_fork_last_cow_size", 0);
    }

    /** Redis prints the byte rate in KiB per second with two decimals ((float) bytes / 1024, "%.2f"). */
    private static String kbps(InstantaneousMetric bytesPerSecond) {
        return String.format(Locale.ROOT, "%.2f", (float) bytesPerSecond.perSecond() / 1024);
    }

    private void stats(StringBuilder out) {
        long hits = 0;
        long misses = 0;
        for (Database db : engine.databases()) {
            hits += db.hits();
            misses += db.misses();
        }
        out.append("# Stats\r\n");
        field(out, "total_connections_received", stats.connectionsReceived);
        field(out, "total_commands_processed", stats.commandsProcessed);
        field(out, "instantaneous_ops_per_sec", stats.opsPerSecond.perSecond());
        field(out, "total_net_input_bytes", stats.netInputBytes);
        field(out, "total_net_output_bytes", stats.netOutputBytes);
        field(out, "total_net_repl_input_bytes", 0);
        field(out, "total_net_repl_output_bytes", 0);
        field(out, "instantaneous_input_kbps", kbps(stats.inputBytesPerSecond));
        field(out, "instantaneous_output_kbps", kbps(stats.outputBytesPerSecond));
        field(out, "instantaneous_input_repl_kbps", "0.00");
        field(out, "instantaneous_output_repl_kbps", "0.00");
        field(out, "rejected_connections", stats.rejectedConnections);
        field(out, "sync_full", stats.syncFull);
        field(out, "sync_partial_ok", stats.syncPartialOk);
        field(out, "sync_partial_err", stats.syncPartialErr);
        field(out, "expired_keys", stats.expiredKeys);
        field(out, "expired_stale_perc", "0.00");
        field(out, "expired_time_cap_reached_count", 0);
        field(out, "expire_cycle_cpu_milliseconds", 0);
        field(out, "evicted_keys", stats.evictedKeys);
        field(out, "evicted_clients", stats.evictedClients);
        field(out, "total_eviction_exceeded_time", 0);
        field(out, "current_eviction_exceeded_time", 0);
        field(out, "keyspace_hits", hits);
        field(out, "keyspace_misses", misses);
        field(out, "pubsub_channels", engine.pubSub().activeCount(PubSub.Kind.CHANNEL));
        field(out, "pubsub_patterns", engine.pubSub().activeCount(PubSub.Kind.PATTERN));
        field(out, "pubsubshard_channels", engine.pubSub().activeCount(PubSub.Kind.SHARD));
        field(out, "latest_fork_usec", 0);
        field(out, "total_forks", 0);
        field(out, "migrate_cached_sockets", 0);
        field(out, "slave_expires_tracked_keys", 0);
        field(out, "active_defrag_hits", 0);
        field(out, "active_defrag_misses", 0);
        field(out, "active_defrag_key_hits", 0);
        field(out, "active_defrag_key_misses", 0);
        field(out, "total_active_defrag_time", 0);
        field(out, "current_active_defrag_time", 0);
        field(out, "tracking_total_keys", engine.tracking().totalKeys());
        field(out, "tracking_total_items", engine.tracking().totalItems());
        field(out, "tracking_total_prefixes", engine.tracking().totalPrefixes());
        field(out, "unexpected_error_replies", 0);
        field(out, "total_error_replies", stats.errorReplies);
        field(out, "dump_payload_sanitizations", 0);
        field(out, "total_reads_processed", stats.commandsProcessed);
        field(out, "total_writes_processed", stats.commandsProcessed);
        field(out, "io_threaded_reads_processed", 0);
        field(out, "io_threaded_writes_processed", 0);
        field(out, "reply_buffer_shrinks", 0);
        field(out, "reply_buffer_expands", 0);
    }

    private void replication(StringBuilder out) {
        Replication replication = engine.replication();
        var replicas = replication.replicas();
        long nowSeconds = engine.time().millis() / 1000;
        out.append("# Replication\r\n");
        var upstream = replication.upstream();
        if (upstream == null) {
            field(out, "role", "master");
        } else {
            // a replica of a node of its simulated cluster: always linked, never syncing (decision 0022)
            field(out, "role", "slave");
            field(out, "master_host", upstream.host());
            field(out, "master_port", upstream.port());
            field(out, "master_link_status", "up");
            field(out, "master_last_io_seconds_ago", nowSeconds - replication.lastFromMasterMillis() / 1000);
            field(out, "master_sync_in_progress", 0);
            field(out, "slave_read_repl_offset", replication.offset());
            field(out, "slave_repl_offset", replication.offset());
            field(out, "slave_priority", config.get("replica-priority"));
            field(out, "slave_read_only", "yes".equals(config.get("replica-read-only")) ? 1 : 0);
            field(out, "replica_announced", "yes".equals(config.get("replica-announced")) ? 1 : 0);
        }
        field(out, "connected_slaves", replicas.size());
        for (int i = 0; i < replicas.size(); i++) {
            ReplicaLink link = replicas.get(i);
            long lag = nowSeconds - link.ackMillis() / 1000;
            field(out, "slave" + i, "ip=" + link.ip() + ",port=" + link.listeningPort() + ",state=online,offset="
                    + link.ackOffset() + ",lag=" + lag);
        }
        field(out, "master_failover_state", "no-failover");
        field(out, "master_replid", replication.replid());
        field(out, "master_replid2", replication.replid2());
        field(out, "master_repl_offset", replication.offset());
        field(out, "second_repl_offset", replication.secondOffset());
        field(out, "repl_backlog_active", replication.backlogActive() ? 1 : 0);
        field(out, "repl_backlog_size", config.get("repl-backlog-size"));
        field(out, "repl_backlog_first_byte_offset", replication.backlogFirstByteOffset());
        field(out, "repl_backlog_histlen", replication.backlogHistlen());
    }

    private void cpu(StringBuilder out) {
        double user = 0;
        double total = 0;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (threads.isCurrentThreadCpuTimeSupported()) {
            user = threads.getCurrentThreadUserTime() / 1e9;
            total = threads.getCurrentThreadCpuTime() / 1e9;
        }
        double sys = Math.max(0, total - user);
        double processTotal = processCpuSeconds();
        double processSys = Math.max(sys, processTotal * sys / Math.max(total, 1e-9));
        double processUser = Math.max(user, processTotal - processSys);
        out.append("# CPU\r\n");
        field(out, "used_cpu_sys", seconds(processSys));
        field(out, "used_cpu_user", seconds(processUser));
        field(out, "used_cpu_sys_children", seconds(0));
        field(out, "used_cpu_user_children", seconds(0));
        field(out, "used_cpu_sys_main_thread", seconds(sys));
        field(out, "used_cpu_user_main_thread", seconds(user));
    }

    private static double processCpuSeconds() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            long nanos = os.getProcessCpuTime();
            return nanos < 0 ? 0 : nanos / 1e9;
        }
        return 0;
    }

    private static String seconds(double value) {
        return String.format(Locale.ROOT, "%.6f", value);
    }

    private void commandStats(StringBuilder out) {
        out.append("# Commandstats\r\n");
        for (Map.Entry<String, long[]> e : new TreeMap<>(stats.perCommand).entrySet()) {
            long[] c = e.getValue();
            if (c[0] == 0 && c[2] == 0 && c[3] == 0) {
                continue; // zeroed by CONFIG RESETSTAT: as if never called
            }
            double perCall = c[0] == 0 ? 0 : (double) c[1] / c[0];
            out.append("cmdstat_").append(e.getKey()).append(":calls=").append(c[0]).append(",usec=").append(c[1])
                    .append(",usec_per_call=").append(String.format(Locale.ROOT, "%.2f", perCall))
                    .append(",rejected_calls=").append(c[2]).append(",failed_calls=").append(c[3]).append("\r\n");
        }
    }

    private void errorStats(StringBuilder out) {
        out.append("# Errorstats\r\n");
        for (Map.Entry<String, Long> e : stats.errorsByCode.entrySet()) {
            out.append("errorstat_").append(e.getKey()).append(":count=").append(e.getValue()).append("\r\n");
        }
    }

    /**
     * Per-command latency percentiles from each command's histogram (latency-tracking), at the percentiles of
     * latency-tracking-info-percentiles: "p" and the percentile as %f without trailing zeros, the value in
     * microseconds with three decimals.
     */
    private void latencyStats(StringBuilder out) {
        out.append("# Latencystats\r\n");
        LatencyMonitor latency = engine.latency();
        double[] percentiles = latency.infoPercentiles();
        for (String command : latency.commandsWithHistograms()) {
            LatencyHistogram histogram = latency.histogram(command);
            out.append("latency_percentiles_usec_").append(command).append(':');
            for (int i = 0; i < percentiles.length; i++) {
                if (i > 0) {
                    out.append(',');
                }
                out.append('p').append(percentileName(percentiles[i])).append('=').append(String.format(Locale.ROOT,
                        "%.3f", histogram.valueAtPercentile(percentiles[i]) / 1000.0));
            }
            out.append("\r\n");
        }
    }

    /** C's "%f" with the trailing zeros (and a trailing dot) trimmed, as Redis names the percentiles. */
    private static String percentileName(double percentile) {
        String text = String.format(Locale.ROOT, "%f", percentile);
        if (text.contains(".")) {
            text = text.replaceAll("0+$", "");
            if (text.endsWith(".")) {
                text = text.substring(0, text.length() - 1);
            }
        }
        return text;
    }

    private void keyspace(StringBuilder out) {
        out.append("# Keyspace\r\n");
        for (Database db : engine.databases()) {
            if (db.size() > 0) {
                out.append("db").append(db.id()).append(":keys=").append(db.size()).append(",expires=")
                        .append(db.expiresCount()).append(",avg_ttl=").append(db.averageTtl()).append("\r\n");
            }
        }
    }

    /** Redis's bytesToHuman: B below 1K, then K, M, G, T, P with two decimals. */
    static String human(long bytes) {
        if (bytes < 1024) {
            return bytes + "B";
        }
        String[] units = {"K", "M", "G", "T", "P"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.2f%s", value, units[unit]);
    }
}
