package dev.redsim.conformance;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the slow log records, on both servers, with every command logged (slowlog-log-slower-than 0): arguments as
 * sent, shortened to 32 arguments of 128 bytes, secrets redacted, the commands of a transaction but not EXEC,
 * a script's own calls from a client without address, nothing for a command that blocked; ids that count on,
 * timestamps of now, the client's address and name. Times are checked for their range only.
 */
class SlowLogTest {

    @AcrossTargets
    void theSlowLogRecordsWhatRedisRecords(RedisTarget target) {
        try (RespClient client = new RespClient(target.host(), target.port())) {
            try {
                client.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
                client.call("CONFIG", "SET", "slowlog-max-len", "128");
                client.call("CLIENT", "SETNAME", "logger");
                client.call("SLOWLOG", "RESET");
                long before = serverSeconds(client);
                client.call("AUTH", "nobody-has-this");
                client.call("HELLO", "2", "AUTH", "default", "wrong");
                client.call("ACL", "SETUSER", "slow:user", ">pw", "~k*");
                client.call("ACL", "DELUSER", "slow:user");
                client.call("MULTI");
                client.call("SET", "slow:a", "1");
                client.call("INCR", "slow:a");
                client.call("EXEC");
                client.call("EVAL", "redis.call('set', 'slow:b', '2')", "0");
                client.call("BLPOP", "slow:nothing", "0.01");
                client.call("SET", "x".repeat(200), "v");
                List<String> many = new ArrayList<>(List.of("DEL"));
                for (int i = 1; i <= 40; i++) {
                    many.add(Integer.toString(i));
                }
                client.call(many.toArray(new String[0]));
                client.call("CONFIG", "SET", "requirepass", "");
                RespValue log = client.call("SLOWLOG", "GET", "-1");
                long after = serverSeconds(client);
                String address = address(client);

                List<String> seen = new ArrayList<>();
                long previousId = Long.MAX_VALUE;
                for (RespValue entry : log.children()) {
                    List<RespValue> f = entry.children();
                    assertThat(f).hasSize(6);
                    assertThat(f.get(0).asLong()).isLessThan(previousId);
                    previousId = f.get(0).asLong();
                    assertThat(f.get(1).asLong()).isBetween(before, after);
                    assertThat(f.get(2).asLong()).isNotNegative();
                    List<String> args = new ArrayList<>();
                    for (RespValue arg : f.get(3).children()) {
                        args.add(arg.text());
                    }
                    String from = f.get(4).text().equals(address) ? "me" : f.get(4).text();
                    seen.add(String.join(" ", args) + " | " + from + " | " + f.get(5).text());
                }
                String longKey = "x".repeat(128) + "... (72 more bytes)";
                assertThat(seen).containsExactly(
                        "CONFIG SET requirepass (redacted) | me | logger",
                        "DEL 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 "
                                + "... (10 more arguments) | me | logger",
                        "SET " + longKey + " v | me | logger",
                        "EVAL redis.call('set', 'slow:b', '2') 0 | me | logger",
                        "set slow:b 2 | ?:0 | ",
                        "INCR slow:a | me | logger",
                        "SET slow:a 1 | me | logger",
                        "MULTI | me | logger",
                        "ACL DELUSER slow:user | me | logger",
                        "ACL SETUSER (redacted) (redacted) (redacted) | me | logger",
                        "HELLO 2 AUTH (redacted) (redacted) | me | logger",
                        "AUTH (redacted) | me | logger",
                        "TIME | me | logger",
                        "SLOWLOG RESET | me | logger");
                // those 14, then SLOWLOG GET, TIME and CLIENT INFO of the checks above
                assertThat(client.call("SLOWLOG", "LEN").asLong()).isEqualTo(17);
                client.call("CONFIG", "SET", "slowlog-max-len", "2");
                client.call("PING");
                assertThat(client.call("SLOWLOG", "LEN").asLong()).isEqualTo(2); // trimmed when the next one came
            } finally {
                client.call("CONFIG", "SET", "slowlog-log-slower-than", "10000");
                client.call("CONFIG", "SET", "slowlog-max-len", "128");
                client.call("SLOWLOG", "RESET");
                client.call("DEL", "slow:a", "slow:b", "x".repeat(200));
            }
        }
    }

    private static long serverSeconds(RespClient client) {
        return Long.parseLong(client.call("TIME").children().get(0).text());
    }

    private static String address(RespClient client) {
        String info = client.call("CLIENT", "INFO").text();
        for (String field : info.split(" ")) {
            if (field.startsWith("addr=")) {
                return field.substring("addr=".length());
            }
        }
        throw new AssertionError("no addr in " + new String(info.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
    }
}
