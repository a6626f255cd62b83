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
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator's command table against the real server's: for every command and subcommand the simulator
 * implements, COMMAND INFO must give the same name, arity, flags, key positions (first, last, step) and ACL
 * categories as Redis 7.0. Tips and key specifications are not compared here (the simulator derives its key
 * specifications from the key positions; Redis's are finer grained).
 */
class CommandTableTest {
    @Test
    void everyImplementedCommandDescribesItselfLikeRedis() {
        RedisTarget reference = SharedTargets.reference();
        RedisTarget simulator = SharedTargets.simulator();
        List<String> differences = new ArrayList<>();
        try (RespClient redis = new RespClient(reference.host(), reference.port());
             RespClient sim = new RespClient(simulator.host(), simulator.port())) {
            for (String name : commandNames(sim)) {
                RespValue ours = sim.call("COMMAND", "INFO", name).children().get(0);
                RespValue theirs = redis.call("COMMAND", "INFO", name).children().get(0);
                if (theirs.children() == null) {
                    differences.add(name + ": not a Redis 7.0 command");
                    continue;
                }
                String want = describe(theirs);
                String got = describe(ours);
                if (!want.equals(got)) {
                    differences.add(name + "\n    redis:     " + want + "\n    simulator: " + got);
                }
            }
        }
        assertThat(differences).as("COMMAND INFO differences").isEmpty();
    }

    /**
     * COMMAND DOCS (what redis-cli reads at start): for every command a map whose fields Redis also has, with
     * a summary, and the same since and group as Redis's documentation.
     */
    @Test
    void everyImplementedCommandIsDocumentedLikeRedis() {
        RedisTarget reference = SharedTargets.reference();
        RedisTarget simulator = SharedTargets.simulator();
        List<String> differences = new ArrayList<>();
        try (RespClient redis = new RespClient(reference.host(), reference.port());
             RespClient sim = new RespClient(simulator.host(), simulator.port())) {
            for (String name : commandNames(sim)) {
                Map<String, RespValue> ours = docFields(sim.call("COMMAND", "DOCS", name));
                Map<String, RespValue> theirs = docFields(redis.call("COMMAND", "DOCS", name));
                if (!theirs.keySet().containsAll(ours.keySet())) {
                    differences.add(name + ": fields " + ours.keySet() + " not all in Redis's " + theirs.keySet());
                }
                if (ours.get("summary") == null || ours.get("summary").text().isBlank()) {
                    differences.add(name + ": no summary");
                }
                for (String field : List.of("since", "group")) {
                    String want = text(theirs.get(field));
                    String got = text(ours.get(field));
                    if (!want.equals(got)) {
                        differences.add(name + " " + field + ": redis " + want + ", simulator " + got);
                    }
                }
            }
        }
        assertThat(differences).as("COMMAND DOCS differences").isEmpty();
    }

    /** The fields of the one entry of a RESP2 COMMAND DOCS reply ([name, [field, value, ...]]). */
    private static Map<String, RespValue> docFields(RespValue docs) {
        Map<String, RespValue> fields = new LinkedHashMap<>();
        List<RespValue> flat = docs.children().get(1).children();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            fields.put(flat.get(i).text(), flat.get(i + 1));
        }
        return fields;
    }

    private static String text(RespValue value) {
        return value == null ? "(none)" : value.text();
    }

    private static List<String> commandNames(RespClient client) {
        List<String> names = new ArrayList<>();
        for (RespValue name : client.call("COMMAND", "LIST").children()) {
            names.add(name.text());
        }
        names.sort(null);
        return names;
    }

    /** name arity [flags] first last step [categories], with flags and categories in a stable order. */
    private static String describe(RespValue info) {
        List<RespValue> f = info.children();
        return f.get(0).text() + " arity=" + f.get(1).text() + " flags=" + texts(f.get(2)) + " keys="
                + f.get(3).text() + "," + f.get(4).text() + "," + f.get(5).text() + " acl=" + texts(f.get(6));
    }

    private static TreeSet<String> texts(RespValue set) {
        TreeSet<String> result = new TreeSet<>();
        for (RespValue v : set.children()) {
            result.add(v.text());
        }
        return result;
    }
}
