package dev.redsim.simulator.engine;

import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.EncodingLimits;
import dev.redsim.simulator.util.GlobMatcher;
import dev.redsim.simulator.version.RedisVersion;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The server configuration: every Redis 7.0 parameter with its default (from config-defaults.tsv), so that
 * CONFIG GET answers like Redis and CONFIG SET round-trips any known parameter. Parameters the simulator acts on
 * are read through typed getters or change listeners.
 */
public final class Config implements EncodingLimits {
    /** Old names Redis still accepts, mapped to the current ones. */
    private static final Map<String, String> ALIASES = Map.ofEntries(
            Map.entry("hash-max-ziplist-entries", "hash-max-listpack-entries"),
            Map.entry("hash-max-ziplist-value", "hash-max-listpack-value"),
            Map.entry("zset-max-ziplist-entries", "zset-max-listpack-entries"),
            Map.entry("zset-max-ziplist-value", "zset-max-listpack-value"),
            Map.entry("list-max-ziplist-size", "list-max-listpack-size"),
            Map.entry("slaveof", "replicaof"),
            Map.entry("slave-announce-ip", "replica-announce-ip"),
            Map.entry("slave-announce-port", "replica-announce-port"),
            Map.entry("slave-ignore-maxmemory", "replica-ignore-maxmemory"),
            Map.entry("slave-lazy-flush", "replica-lazy-flush"),
            Map.entry("slave-priority", "replica-priority"),
            Map.entry("slave-read-only", "replica-read-only"),
            Map.entry("slave-serve-stale-data", "replica-serve-stale-data"),
            Map.entry("min-slaves-max-lag", "min-replicas-max-lag"),
            Map.entry("min-slaves-to-write", "min-replicas-to-write"),
            Map.entry("repl-ping-slave-period", "repl-ping-replica-period"),
            Map.entry("cluster-slave-no-failover", "cluster-replica-no-failover"),
            Map.entry("cluster-slave-validity-factor", "cluster-replica-validity-factor"),
            Map.entry("lua-time-limit", "busy-reply-threshold"));

    /** Parameters Redis refuses to change at run time ("can't set immutable config"). */
    private static final Set<String> IMMUTABLE = Set.of("daemonize", "databases", "io-threads", "pidfile",
            "supervised", "unixsocket", "unixsocketperm", "logfile", "syslog-enabled", "syslog-ident",
            "syslog-facility", "cluster-enabled", "cluster-config-file", "cluster-port", "aclfile",
            "always-show-logo", "set-proc-title", "disable-thp", "tcp-backlog", "enable-debug-command",
            "enable-module-command", "enable-protected-configs", "io-threads-do-reads", "appenddirname",
            "appendfilename", "jemalloc-bg-thread", "oom-score-adj-values", "crash-log-enabled",
            "crash-memcheck-enabled", "tls-cluster", "tls-replication", "tls-auth-clients");

    /**
     * The values set since the start, over the defaults (shared and immutable): a start used to copy all ~200
     * defaults, a fifth of the starting thread's CPU time in later starts (decision 0042). Read and written on the
     * engine thread, or by the start before that thread runs.
     */
    private final Map<String, String> changed = new java.util.HashMap<>();
    private final Map<String, Consumer<String>> listeners = new LinkedHashMap<>();
    private volatile int notifyFlags;
    private volatile long protoMaxBulkLen;
    /**
     * getLong's parsed numbers by the name the caller asked with, each valid for the {@link #version} it was read
     * at: commands read encoding limits and the slow log / latency thresholds at every call (a tenth of a queue
     * script's time went to lower-casing, alias lookup and parsing them again).
     */
    private final Map<String, ParsedLong> parsedLongs = new java.util.concurrent.ConcurrentHashMap<>();
    /** Moves on with every change of a value, so that no parsed number outlives its text. */
    private volatile int version;

    private record ParsedLong(int version, long value) {
    }
    /**
     * The canonical name of each name a caller asked {@link #get} with: the call path reads a few parameters on every
     * command (slowlog, latency, encoding thresholds) and lower-casing plus the alias lookup cost more than the read.
     * Names never change their canonical form, so nothing here is ever stale.
     */
    private final Map<String, String> canonicalNames = new java.util.concurrent.ConcurrentHashMap<>();
    private static final int MAX_REMEMBERED_NAMES = 1024;

    public Config() {
        protoMaxBulkLen = Long.parseLong(value("proto-max-bulk-len"));
    }

    /** config-defaults.tsv of the imitated version, read once per JVM (immutable; every Config copies it). */
    private static final class Defaults {
        static final Map<String, String> VALUES = read();

        private static Map<String, String> read() {
            Map<String, String> defaults = new LinkedHashMap<>();
            try (InputStream in = Config.class.getResourceAsStream(RedisVersion.IMITATED.configDefaults());
                 BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    if (line.isEmpty() || line.startsWith("#")) {
                        continue;
                    }
                    int tab = line.indexOf('\t');
                    String name = line.substring(0, tab);
                    if (!ALIASES.containsKey(name)) {
                        defaults.put(name, line.substring(tab + 1));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return java.util.Collections.unmodifiableMap(defaults);
        }
    }

    /** The value of a canonical name, or null for an unknown one. */
    private String value(String key) {
        String value = changed.get(key);
        return value != null ? value : Defaults.VALUES.get(key);
    }

    private boolean has(String key) {
        return changed.containsKey(key) || Defaults.VALUES.containsKey(key);
    }

    private void store(String key, String value) {
        changed.put(key, value);
    }

    /** Registers code that acts on a parameter when CONFIG SET changes it. */
    public void onChange(String name, Consumer<String> listener) {
        listeners.put(name, listener);
    }

    public static String canonical(String name) {
        String lower = name.toLowerCase();
        return ALIASES.getOrDefault(lower, lower);
    }

    public boolean known(String name) {
        return has(canonical(name));
    }

    public String get(String name) {
        String key = canonicalNames.get(name);
        if (key == null) {
            key = canonical(name);
            if (canonicalNames.size() < MAX_REMEMBERED_NAMES) { // names from clients must not grow it without end
                canonicalNames.put(name, key);
            }
        }
        return value(key);
    }

    /**
     * Moves on with every change of any value: a reader that keeps a value it read (the slow log and latency
     * thresholds, read at every call) reads it again when this differs from what it was then.
     */
    public int version() {
        return version;
    }

    public long getLong(String name) {
        int now = version;
        ParsedLong parsed = parsedLongs.get(name);
        if (parsed != null && parsed.version() == now) {
            return parsed.value();
        }
        long value = Long.parseLong(get(name)); // read after the version: a change meanwhile moves it on
        parsedLongs.put(name, new ParsedLong(now, value));
        return value;
    }

    /** Sets a value without validation (start-up options such as port and requirepass). */
    public void setInternal(String name, String value) {
        String key = canonical(name);
        store(key, value);
        version++;
        if (key.equals("proto-max-bulk-len")) {
            protoMaxBulkLen = Long.parseLong(value);
        } else if (key.equals("notify-keyspace-events")) {
            notifyFlags = KeyspaceEvents.parse(value);
        }
    }

    /**
     * CONFIG SET of one parameter, validated as Redis validates it. Throws the error Redis would give; the
     * caller wraps it with the "CONFIG SET failed" prefix.
     */
    public void set(String name, String value) {
        apply(name, validated(name, value));
    }

    /**
     * Checks that a parameter may be changed at all (known, not immutable, not protected), before any value
     * of a CONFIG SET is looked at: Redis reports these first.
     */
    public void checkSettable(String name) {
        String key = canonical(name);
        if (!has(key)) {
            throw new RedisError("Unknown option or number of arguments for CONFIG SET - '" + name + "'");
        }
        String kind = ConfigTypes.load().kind(name);
        if (IMMUTABLE.contains(key) || "immutable".equals(kind)) {
            throw new RedisError("can't set immutable config");
        }
        if ("protected".equals(kind)) {
            throw new RedisError("can't set protected config");
        }
    }

    /**
     * A start-up option (redis-server --name value, Builder.config): the value as Redis would store it, or the
     * error Redis's CONFIG SET gives for it. Immutable parameters are allowed here, as at redis-server's start.
     */
    public String validatedAtStart(String name, String value) {
        String key = canonical(name);
        if (key.equals("notify-keyspace-events")) {
            if (KeyspaceEvents.parse(value) < 0) {
                throw new RedisError("Invalid event class character. Use 'Ag$lshzxeKEtmdn'.");
            }
            return value;
        }
        if (key.equals("client-output-buffer-limit")) {
            return OutputBufferLimitConfig.merged(value(key), value);
        }
        return ConfigTypes.load().validate(name, value);
    }

    /** The value as Redis would store it, or the error (without prefix) Redis gives for it. */
    public String validated(String name, String value) {
        checkSettable(name);
        String key = canonical(name);
        if (key.equals("notify-keyspace-events")) {
            int flags = KeyspaceEvents.parse(value);
            if (flags < 0) {
                throw new RedisError("Invalid event class character. Use 'Ag$lshzxeKEtmdn'.");
            }
            // The letters as given: CONFIG GET's form hides n after A, so it cannot be parsed back (see apply).
            return value;
        }
        if (key.equals("client-output-buffer-limit")) {
            return OutputBufferLimitConfig.merged(value(key), value);
        }
        if (key.equals("bind") && value.trim().split("\\s+").length > 16) { // CONFIG_BINDADDR_MAX
            throw new RedisError("Too many bind addresses specified.");
        }
        String stored = ConfigTypes.load().validate(name, value);
        // Redis keeps hz within 1..500 whatever was asked (serverCron clamps it).
        if (key.equals("hz")) {
            stored = Long.toString(Math.max(1, Math.min(500, Long.parseLong(stored))));
        }
        return stored;
    }

    /** Stores an already validated value and tells whoever follows the parameter. */
    public void apply(String name, String stored) {
        String key = canonical(name);
        store(key, key.equals("notify-keyspace-events")
                ? KeyspaceEvents.format(KeyspaceEvents.parse(stored)) : stored);
        version++;
        if (key.equals("proto-max-bulk-len")) {
            protoMaxBulkLen = Long.parseLong(stored);
        } else if (key.equals("notify-keyspace-events")) {
            notifyFlags = KeyspaceEvents.parse(stored);
        }
        Consumer<String> listener = listeners.get(key);
        if (listener != null) {
            listener.accept(stored);
        }
    }

    /** An integer with Redis's optional memory unit (k, kb, m, mb, g, gb; case-insensitive). */
    public static Long parseMemory(String text) {
        String t = text.toLowerCase();
        long mul = 1;
        String[][] units = {{"kb", "1024"}, {"mb", "1048576"}, {"gb", "1073741824"},
                {"k", "1000"}, {"m", "1000000"}, {"g", "1000000000"}, {"b", "1"}};
        for (String[] unit : units) {
            if (t.endsWith(unit[0])) {
                mul = Long.parseLong(unit[1]);
                t = t.substring(0, t.length() - unit[0].length());
                break;
            }
        }
        try {
            return Math.multiplyExact(Long.parseLong(t), mul);
        } catch (NumberFormatException | ArithmeticException e) {
            return null;
        }
    }

    /** Parameters (and aliases) matching a glob, sorted, as name/value pairs. */
    public List<String[]> matching(String pattern) {
        Map<String, String> result = new TreeMap<>();
        String lower = pattern.toLowerCase();
        for (String key : Defaults.VALUES.keySet()) {
            if (GlobMatcher.matches(lower, key)) {
                result.put(key, value(key));
            }
        }
        for (Map.Entry<String, String> e : changed.entrySet()) {
            if (GlobMatcher.matches(lower, e.getKey())) {
                result.put(e.getKey(), e.getValue());
            }
        }
        for (Map.Entry<String, String> alias : ALIASES.entrySet()) {
            if (GlobMatcher.matches(lower, alias.getKey())) {
                result.put(alias.getKey(), value(alias.getValue()));
            }
        }
        List<String[]> pairs = new ArrayList<>();
        result.forEach((k, v) -> pairs.add(new String[] {k, v}));
        return pairs;
    }

    public int notifyFlags() {
        return notifyFlags;
    }

    public long protoMaxBulkLen() {
        return protoMaxBulkLen;
    }

    public String requirePass() {
        return value("requirepass");
    }

    /**
     * The encoding limits as read at config version {@link #limitsVersion}: HSET, SADD, ZADD and the list pushes ask
     * for them at every call (two of them per HSET), and they change only with a CONFIG SET. The version is written
     * last and read first (volatile), so a thread that sees it sees the limits read with it.
     */
    private long hashEntries;
    private long hashValue;
    private long setIntsetEntries;
    private long zsetEntries;
    private long zsetValue;
    private long listSize;
    private volatile int limitsVersion = -1;

    private void readLimits() {
        int now = version;
        if (limitsVersion != now) {
            hashEntries = getLong("hash-max-listpack-entries");
            hashValue = getLong("hash-max-listpack-value");
            setIntsetEntries = getLong("set-max-intset-entries");
            zsetEntries = getLong("zset-max-listpack-entries");
            zsetValue = getLong("zset-max-listpack-value");
            listSize = getLong("list-max-listpack-size");
            limitsVersion = now;
        }
    }

    @Override
    public long hashMaxListpackEntries() {
        readLimits();
        return hashEntries;
    }

    @Override
    public long hashMaxListpackValue() {
        readLimits();
        return hashValue;
    }

    @Override
    public long setMaxIntsetEntries() {
        readLimits();
        return setIntsetEntries;
    }

    @Override
    public long zsetMaxListpackEntries() {
        readLimits();
        return zsetEntries;
    }

    @Override
    public long zsetMaxListpackValue() {
        readLimits();
        return zsetValue;
    }

    @Override
    public long listMaxListpackSize() {
        readLimits();
        return listSize;
    }
}
