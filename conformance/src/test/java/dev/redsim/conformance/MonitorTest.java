package dev.redsim.conformance;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MONITOR on both servers: the line of each command (after it ran, so SELECT shows its new database and AUTH
 * its redacted password), scripts before their own calls ("lua"), a transaction's commands when EXEC runs them,
 * admin commands hidden, arguments quoted as sdscatrepr quotes them; a monitor sees its own commands, may not
 * touch the keyspace, and RESET ends it. Timestamps are checked for order and range, addresses by whose they are.
 */
class MonitorTest {
    private static final Pattern LINE = Pattern.compile("(\\d+)\\.(\\d{6}) \\[(\\d+) ([^\\]]+)\\] (.*)");

    @AcrossTargets
    void monitorsSeeWhatRedisShowsThem(RedisTarget target) {
        try (RespClient monitor = new RespClient(target.host(), target.port());
             RespClient client = new RespClient(target.host(), target.port())) {
            String clientAddress = address(client);
            long before = seconds(client);
            assertThat(monitor.call("MONITOR").text()).isEqualTo("OK");
            client.call("AUTH", "nobody-has-this");
            client.call("MULTI");
            client.call("SET", "mon:a", "x\ny\"\\\u0001");
            client.call("INCR", "mon:a");
            client.call("EXEC");
            client.call("EVAL", "redis.call('set', 'mon:b', '2')", "0");
            client.call("CONFIG", "GET", "port");
            client.call("SELECT", "3");
            client.call("SET", "mon:k", "\u20ac");
            client.call("SELECT", "0");
            client.call("DEL", "mon:a", "mon:b");
            client.call("PING", "last");
            List<String> lines = new ArrayList<>();
            long previous = 0;
            while (lines.isEmpty() || !lines.get(lines.size() - 1).endsWith("\"PING\" \"last\"")) {
                Matcher m = LINE.matcher(monitor.read().text());
                assertThat(m.matches()).isTrue();
                long micros = Long.parseLong(m.group(1)) * 1_000_000 + Long.parseLong(m.group(2));
                assertThat(micros).isGreaterThanOrEqualTo(previous);
                assertThat(micros / 1_000_000).isGreaterThanOrEqualTo(before);
                previous = micros;
                String who = m.group(4).equals(clientAddress) ? "client" : m.group(4);
                lines.add(m.group(3) + " " + who + " " + m.group(5));
            }
            assertThat(lines).containsExactly(
                    "0 client \"AUTH\" \"(redacted)\"",
                    "0 client \"MULTI\"",
                    "0 client \"SET\" \"mon:a\" \"x\\ny\\\"\\\\\\x01\"",
                    "0 client \"INCR\" \"mon:a\"",
                    "0 client \"EXEC\"",
                    "0 client \"EVAL\" \"redis.call('set', 'mon:b', '2')\" \"0\"",
                    "0 lua \"set\" \"mon:b\" \"2\"",
                    "3 client \"SELECT\" \"3\"",
                    "3 client \"SET\" \"mon:k\" \"\\xe2\\x82\\xac\"",
                    "0 client \"SELECT\" \"0\"",
                    "0 client \"DEL\" \"mon:a\" \"mon:b\"",
                    "0 client \"PING\" \"last\"");

            monitor.send(bytes("MONITOR")); // a second MONITOR: no reply
            monitor.send(bytes("GET", "mon:k"));
            assertThat(monitor.read().text()).isEqualTo("ERR Replica can't interact with the keyspace");
            assertThat(monitor.call("RESET").text()).isEqualTo("RESET");
            assertThat(monitor.call("GET", "mon:k").isError()).isFalse();
            client.call("SELECT", "3");
            client.call("DEL", "mon:k");
        }
    }

    private static long seconds(RespClient client) {
        return Long.parseLong(client.call("TIME").children().get(0).text());
    }

    private static String address(RespClient client) {
        for (String field : client.call("CLIENT", "INFO").text().split(" ")) {
            if (field.startsWith("addr=")) {
                return field.substring("addr=".length());
            }
        }
        throw new AssertionError("no addr");
    }

    private static byte[][] bytes(String... args) {
        byte[][] result = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            result[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return result;
    }
}
