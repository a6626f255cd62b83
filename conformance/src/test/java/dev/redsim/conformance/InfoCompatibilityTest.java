package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * INFO can only be compared structurally: every section and field the simulator prints must exist in real
 * Redis 7.0's INFO, with the same kind of value (integer, decimal, text), the fields tools rely on must be
 * there, and the values the simulator can know exactly (version, port, keyspace, counters) must be right.
 */
class InfoCompatibilityTest {
    /** Fields named after commands, error codes or databases: compared by their prefix. */
    private static final Pattern DYNAMIC = Pattern.compile("(cmdstat_|errorstat_|latency_percentiles_usec_|db\\d+).*");
    private static final Pattern INTEGER = Pattern.compile("-?\\d+");
    private static final Pattern DECIMAL = Pattern.compile("-?\\d+\\.\\d+");

    @Test
    void everySectionAndFieldExistsInRedis() {
        Map<String, Map<String, String>> redis = info(SharedTargets.reference(), "everything");
        Map<String, Map<String, String>> ours = info(SharedTargets.simulator(), "everything");
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> section : ours.entrySet()) {
            Map<String, String> theirs = redis.get(section.getKey());
            if (theirs == null) {
                problems.add("section " + section.getKey() + " is not in Redis's INFO");
                continue;
            }
            for (Map.Entry<String, String> field : section.getValue().entrySet()) {
                String name = field.getKey();
                if (DYNAMIC.matcher(name).matches()) {
                    continue;
                }
                String want = theirs.get(name);
                if (want == null) {
                    problems.add(section.getKey() + "." + name + " is not in Redis's INFO");
                } else if (!sameKind(want, field.getValue())) {
                    problems.add(section.getKey() + "." + name + ": redis '" + want + "', simulator '"
                            + field.getValue() + "'");
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(ours.keySet()).containsExactlyElementsOf(redis.keySet());
    }

    private static boolean sameKind(String want, String got) {
        if (INTEGER.matcher(want).matches()) {
            return INTEGER.matcher(got).matches();
        }
        if (DECIMAL.matcher(want).matches()) {
            return DECIMAL.matcher(got).matches();
        }
        return true;
    }

    @Test
    void fieldsToolsReadArePresentWithKnownValues() {
        RedisTarget simulator = SharedTargets.simulator();
        Map<String, String> all = flat(info(simulator, "everything"));
        for (String field : List.of("redis_version", "redis_mode", "os", "arch_bits", "process_id", "run_id",
                "tcp_port", "uptime_in_seconds", "uptime_in_days", "hz", "connected_clients", "blocked_clients",
                "used_memory", "used_memory_human", "maxmemory", "loading", "rdb_changes_since_last_save",
                "rdb_last_save_time", "total_connections_received", "total_commands_processed", "keyspace_hits",
                "keyspace_misses", "expired_keys", "rejected_connections", "total_error_replies", "role",
                "connected_slaves", "used_cpu_sys", "used_cpu_user", "cluster_enabled")) {
            assertThat(all).as(field).containsKey(field);
        }
        assertThat(all.get("redis_version")).isEqualTo("7.0.15");
        assertThat(all.get("redis_mode")).isEqualTo("standalone");
        assertThat(all.get("tcp_port")).isEqualTo(Integer.toString(simulator.port()));
        assertThat(all.get("run_id")).matches("[0-9a-f]{40}");
        assertThat(all.get("hz")).isEqualTo("10");
        assertThat(all.get("loading")).isEqualTo("0");
        assertThat(all.get("blocked_clients")).isEqualTo("0");
        assertThat(all.get("role")).isEqualTo("master");
        assertThat(all.get("connected_slaves")).isEqualTo("0");
        assertThat(all.get("cluster_enabled")).isEqualTo("0");
        assertThat(Long.parseLong(all.get("connected_clients"))).isPositive();
        assertThat(Long.parseLong(all.get("used_memory"))).isPositive();
    }

    /** The same counters move the same way on both servers. */
    @Test
    void countersFollowCommandsOnBothServers() {
        for (RedisTarget target : List.of(SharedTargets.reference(), SharedTargets.simulator())) {
            try (RespClient c = new RespClient(target.host(), target.port())) {
                c.call("SELECT", "9");
                c.call("FLUSHDB");
                Map<String, String> before = flat(info(c, "all"));
                c.call("SET", "a", "1");
                c.call("SET", "b", "2", "EX", "1000");
                c.call("SET", "c", "x");
                c.call("GET", "a");
                c.call("GET", "missing");
                c.call("GET");
                c.call("INCR", "c");
                c.call("INCR", "c");
                Map<String, String> after = flat(info(c, "all"));
                String name = target.name();
                assertThat(delta(before, after, "keyspace_hits")).as(name).isEqualTo(1);
                assertThat(delta(before, after, "keyspace_misses")).as(name).isEqualTo(1);
                assertThat(delta(before, after, "rdb_changes_since_last_save")).as(name).isEqualTo(3);
                assertThat(delta(before, after, "total_error_replies")).as(name).isEqualTo(3);
                assertThat(delta(before, after, "total_commands_processed")).as(name).isGreaterThanOrEqualTo(8);
                assertThat(after.get("db9")).as(name).matches("keys=3,expires=1,avg_ttl=\\d+");
                assertThat(stat(after, "cmdstat_get", "calls") - stat(before, "cmdstat_get", "calls")).as(name)
                        .isEqualTo(2);
                assertThat(stat(after, "cmdstat_get", "rejected_calls")
                        - stat(before, "cmdstat_get", "rejected_calls")).as(name).isEqualTo(1);
                assertThat(stat(after, "cmdstat_incr", "failed_calls")
                        - stat(before, "cmdstat_incr", "failed_calls")).as(name).isEqualTo(2);
                assertThat(after.get("cmdstat_get")).as(name)
                        .matches("calls=\\d+,usec=\\d+,usec_per_call=\\d+\\.\\d\\d,rejected_calls=\\d+,failed_calls=\\d+");
                assertThat(after).as(name).containsKey("errorstat_ERR");
                c.call("SAVE");
                assertThat(flat(info(c, "persistence")).get("rdb_changes_since_last_save")).as(name).isEqualTo("0");
                c.call("FLUSHDB");
            }
        }
    }

    @Test
    void sectionSelectionMatchesRedis() {
        for (String[] args : new String[][] {{}, {"default"}, {"all"}, {"everything"}, {"server"},
                {"SERVER", "keyspace"}, {"commandstats"}, {"nosuch"}, {"stats", "cpu", "nosuch"},
                {"default", "commandstats"}, {"all", "server"}}) {
            assertThat(info(SharedTargets.simulator(), args).keySet()).as(String.join(" ", args))
                    .containsExactlyElementsOf(info(SharedTargets.reference(), args).keySet());
        }
    }

    @Test
    void verbatimInResp3() {
        for (RedisTarget target : List.of(SharedTargets.reference(), SharedTargets.simulator())) {
            try (RespClient c = new RespClient(target.host(), target.port())) {
                c.call("HELLO", "3");
                RespValue reply = c.call("INFO", "server");
                assertThat(reply.type()).as(target.name()).isEqualTo('=');
                assertThat(reply.text()).as(target.name()).startsWith("txt:# Server\r\n");
            }
        }
    }

    private static long delta(Map<String, String> before, Map<String, String> after, String field) {
        return Long.parseLong(after.get(field)) - Long.parseLong(before.get(field));
    }

    /** One number of a "calls=1,usec=2,..." field; 0 when the field is absent. */
    private static long stat(Map<String, String> info, String field, String name) {
        String value = info.get(field);
        if (value == null) {
            return 0;
        }
        for (String part : value.split(",")) {
            String[] kv = part.split("=");
            if (kv[0].equals(name)) {
                return Long.parseLong(kv[1]);
            }
        }
        return 0;
    }

    private static Map<String, Map<String, String>> info(RedisTarget target, String... sections) {
        try (RespClient c = new RespClient(target.host(), target.port())) {
            return info(c, sections);
        }
    }

    /** Sections (lower-case) to fields, in the order printed. */
    static Map<String, Map<String, String>> info(RespClient c, String... sections) {
        String[] args = new String[sections.length + 1];
        args[0] = "INFO";
        System.arraycopy(sections, 0, args, 1, sections.length);
        String text = c.call(args).text();
        Map<String, Map<String, String>> result = new LinkedHashMap<>();
        Map<String, String> current = null;
        for (String line : text.split("\r\n")) {
            if (line.startsWith("# ")) {
                current = new LinkedHashMap<>();
                result.put(line.substring(2).toLowerCase(), current);
            } else if (!line.isEmpty() && current != null) {
                int colon = line.indexOf(':');
                current.put(line.substring(0, colon), line.substring(colon + 1));
            }
        }
        return result;
    }

    private static Map<String, String> flat(Map<String, Map<String, String>> sections) {
        Map<String, String> all = new LinkedHashMap<>();
        sections.values().forEach(all::putAll);
        return all;
    }
}
