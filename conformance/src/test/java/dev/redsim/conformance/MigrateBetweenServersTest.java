package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisServerTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MIGRATE between standalone servers, over a socket: from a simulator and from a real redis-server, to a simulator and
 * to a real redis-server that both require a password; the four pairs must give the same replies (the source's and
 * what the target holds afterwards): NOAUTH, WRONGPASS, AUTH and AUTH2, another database, COPY, REPLACE, BUSYKEY,
 * KEYS, TTLs, NOKEY, and the IOERR of a port where nothing listens.
 */
class MigrateBetweenServersTest {
    private static final String PASSWORD = "secret";

    /** A fresh server whose default user then needs the password (set once it runs: the start checks are open). */
    private static RedisTarget server(String kind) {
        RedisTarget target;
        if (kind.equals("simulator")) {
            target = new SimulatorTarget(RedisSimulator.start());
        } else {
            Targets.reference().host(); // skips here, or fails in CI, when no redis-server can run
            target = RedisServerTarget.start();
        }
        try (RespClient client = new RespClient(target.host(), target.port())) {
            client.call("CONFIG", "SET", "requirepass", PASSWORD);
        }
        return target;
    }

    @Test
    void everyPairOfSimulatorAndRedisMigratesAlike() {
        Map<String, List<String>> logs = new TreeMap<>();
        for (String source : new String[] {"redis", "simulator"}) {
            for (String target : new String[] {"redis", "simulator"}) {
                RedisTarget from = server(source);
                RedisTarget to = server(target);
                try {
                    logs.put(source + " -> " + target, migrate(from, to));
                } finally {
                    from.close();
                    to.close();
                }
            }
        }
        List<String> truth = logs.get("redis -> redis");
        assertThat(truth).anyMatch(line -> line.contains("NOAUTH")).anyMatch(line -> line.endsWith("+OK\\r\\n"));
        logs.forEach((pair, log) -> assertThat(log).as(pair).containsExactlyElementsOf(truth));
    }

    private static List<String> migrate(RedisTarget from, RedisTarget to) {
        List<String> log = new ArrayList<>();
        try (RespClient source = new RespClient(from.host(), from.port());
             RespClient target = new RespClient(to.host(), to.port())) {
            source.call("AUTH", PASSWORD);
            target.call("AUTH", PASSWORD);
            String port = Integer.toString(to.port());
            String[][] steps = {
                {"SET", "a", "1"}, {"RPUSH", "list", "x", "y"}, {"SET", "ttl", "t", "PX", "1000000"},
                {"SET", "b", "2"},
                {"MIGRATE", to.host(), port, "a", "0", "1000"},
                {"MIGRATE", to.host(), port, "a", "0", "1000", "AUTH", "wrong"},
                {"MIGRATE", to.host(), port, "a", "0", "1000", "AUTH2", "default", "wrong"},
                {"MIGRATE", to.host(), port, "a", "0", "1000", "AUTH", PASSWORD},
                {"EXISTS", "a"},
                {"MIGRATE", to.host(), port, "a", "0", "1000", "AUTH", PASSWORD},
                {"MIGRATE", to.host(), port, "b", "0", "1000", "COPY", "AUTH2", "default", PASSWORD},
                {"MIGRATE", to.host(), port, "b", "0", "1000", "COPY", "AUTH", PASSWORD},
                {"MIGRATE", to.host(), port, "b", "0", "1000", "REPLACE", "AUTH", PASSWORD},
                {"MIGRATE", to.host(), port, "", "3", "0", "AUTH", PASSWORD, "KEYS", "list", "ttl", "none"},
                {"MIGRATE", to.host(), port, "", "3", "1000", "AUTH", PASSWORD, "KEYS", "list", "ttl"},
                {"MIGRATE", to.host(), "1", "x", "0", "100"},
                {"SET", "x", "1"},
                {"MIGRATE", to.host(), "1", "x", "0", "100"},
                {"DBSIZE"},
            };
            for (String[] step : steps) {
                String named = String.join(" ", step).replace(" " + port + " ", " <port> "); // ports differ
                log.add("source> " + named + " -> " + source.call(step));
            }
            String[][] checks = {{"GET", "a"}, {"GET", "b"}, {"DBSIZE"}, {"SELECT", "3"}, {"LRANGE", "list", "0", "-1"},
                {"TTL", "ttl"}, {"DBSIZE"}};
            for (String[] check : checks) {
                log.add("target> " + String.join(" ", check) + " -> " + target.call(check));
            }
        }
        return log;
    }
}
