package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CLIENT LIST / INFO lines, CLIENT KILL of real connections and CLIENT REPLY, checked the same way on real
 * Redis and on the simulator (ids, addresses and buffer figures differ, so fields are compared by name, order
 * and the values a test can know).
 */
class ClientListTest {
    /** The shared targets; parameterized tests must not close them (autoCloseArguments = false). */
    static List<RedisTarget> targets() {
        return List.of(SharedTargets.reference(), SharedTargets.simulator());
    }

    @ParameterizedTest(autoCloseArguments = false)
    @MethodSource("targets")
    void clientInfoHasRedisFieldsInRedisOrder(RedisTarget target) {
        List<String> redisFields = new ArrayList<>(fields(ownLine(SharedTargets.reference())).keySet());
        try (RespClient c = new RespClient(target.host(), target.port())) {
            c.call("CLIENT", "SETNAME", "probe");
            c.call("SELECT", "4");
            long id = c.call("CLIENT", "ID").asLong();
            Map<String, String> info = fields(c.call("CLIENT", "INFO").text());
            assertThat(new ArrayList<>(info.keySet())).isEqualTo(redisFields);
            assertThat(info.get("id")).isEqualTo(Long.toString(id));
            assertThat(info.get("name")).isEqualTo("probe");
            assertThat(info.get("db")).isEqualTo("4");
            assertThat(info.get("flags")).isEqualTo("N");
            assertThat(info.get("cmd")).isEqualTo("client|info");
            assertThat(info.get("user")).isEqualTo("default");
            assertThat(info.get("resp")).isEqualTo("2");
            assertThat(info.get("multi")).isEqualTo("-1");
            assertThat(info.get("laddr")).endsWith(":" + target.port());
            assertThat(info.get("age")).matches("\\d+");
            assertThat(info.get("idle")).matches("\\d+");
            c.call("CLIENT", "NO-EVICT", "on");
            assertThat(fields(c.call("CLIENT", "INFO").text()).get("flags")).isEqualTo("e");

            String list = c.call("CLIENT", "LIST", "ID", Long.toString(id)).text();
            assertThat(list).endsWith("\n").doesNotContain("\r");
            Map<String, String> listed = fields(list);
            assertThat(listed.get("cmd")).isEqualTo("client|list");
            assertThat(listed.get("id")).isEqualTo(Long.toString(id));
            assertThat(c.call("CLIENT", "LIST", "TYPE", "normal").text()).contains("id=" + id + " ");
        }
    }

    @ParameterizedTest(autoCloseArguments = false)
    @MethodSource("targets")
    void clientListShowsOtherConnections(RedisTarget target) {
        try (RespClient a = new RespClient(target.host(), target.port());
             RespClient b = new RespClient(target.host(), target.port())) {
            b.call("CLIENT", "SETNAME", "other");
            b.call("PING");
            long idB = b.call("CLIENT", "ID").asLong();
            String list = a.call("CLIENT", "LIST", "ID", Long.toString(idB)).text();
            Map<String, String> line = fields(list);
            assertThat(line.get("name")).isEqualTo("other");
            assertThat(line.get("cmd")).isEqualTo("client|id");
        }
    }

    @ParameterizedTest(autoCloseArguments = false)
    @MethodSource("targets")
    void verbatimInResp3(RedisTarget target) {
        try (RespClient c = new RespClient(target.host(), target.port())) {
            c.call("HELLO", "3");
            RespValue info = c.call("CLIENT", "INFO");
            assertThat(info.type()).isEqualTo('=');
            assertThat(info.text()).startsWith("txt:id=").endsWith("resp=3\n");
            assertThat(c.call("CLIENT", "LIST").type()).isEqualTo('=');
        }
    }

    @ParameterizedTest(autoCloseArguments = false)
    @MethodSource("targets")
    void killById(RedisTarget target) {
        try (RespClient a = new RespClient(target.host(), target.port());
             RespClient b = new RespClient(target.host(), target.port())) {
            long idB = b.call("CLIENT", "ID").asLong();
            assertThat(a.call("CLIENT", "KILL", "ID", Long.toString(idB)).asLong()).isEqualTo(1);
            assertThat(b.closedByServer()).isTrue();
            assertThat(a.call("CLIENT", "KILL", "ID", Long.toString(idB)).asLong()).isZero();
            assertThat(a.call("PING").text()).isEqualTo("PONG");
        }
    }

    @ParameterizedTest(autoCloseArguments = false)
    @MethodSource("targets")
    void killByOldAddressForm(RedisTarget target) {
        try (RespClient a = new RespClient(target.host(), target.port());
             RespClient b = new RespClient(target.host(), target.port())) {
            String addr = fields(b.call("CLIENT", "INFO").text()).get("addr");
            String laddr = fields(b.call("CLIENT", "INFO").text()).get("laddr");
            assertThat(a.call("CLIENT", "KILL", addr).text()).isEqualTo("OK");
            assertThat(b.closedByServer()).isTrue();
            assertThat(a.call("CLIENT", "KILL", addr).text()).isEqualTo("ERR No such client");
            // LADDR matches every connection to the server, SKIPME (default yes) spares the caller
            assertThat(a.call("CLIENT", "KILL", "LADDR", laddr, "ID", "999999").asLong()).isZero();
        }
    }

    @ParameterizedTest(autoCloseArguments = false)
    @MethodSource("targets")
    void killSelfAnswersThenCloses(RedisTarget target) {
        try (RespClient a = new RespClient(target.host(), target.port())) {
            long id = a.call("CLIENT", "ID").asLong();
            assertThat(a.call("CLIENT", "KILL", "ID", Long.toString(id)).asLong()).isZero();
            assertThat(a.call("CLIENT", "KILL", "ID", Long.toString(id), "SKIPME", "no").asLong()).isEqualTo(1);
            assertThat(a.closedByServer()).isTrue();
        }
    }

    @ParameterizedTest(autoCloseArguments = false)
    @MethodSource("targets")
    void clientReplyOffSkipOn(RedisTarget target) {
        try (RespClient c = new RespClient(target.host(), target.port())) {
            c.send(args("CLIENT", "REPLY", "OFF"));
            c.send(args("PING", "silent"));
            c.send(args("CLIENT", "REPLY", "SKIP"));
            c.send(args("PING", "still-silent"));
            c.send(args("CLIENT", "REPLY", "ON"));
            assertThat(c.read().text()).isEqualTo("OK");
            c.send(args("CLIENT", "REPLY", "SKIP"));
            c.send(args("PING", "skipped"));
            c.send(args("PING", "heard"));
            assertThat(c.read().text()).isEqualTo("heard");
            c.send(args("CLIENT", "REPLY", "SKIP"));
            c.send(args("GET"));
            c.send(args("ECHO", "after-error"));
            assertThat(c.read().text()).isEqualTo("after-error");
        }
    }

    @ParameterizedTest(autoCloseArguments = false)
    @MethodSource("targets")
    void quitWithRepliesOffAnswersNothing(RedisTarget target) {
        // Redis then leaves the socket open but serves nothing more; the simulator closes it. Either way no
        // byte arrives: receivesNothing() is true on end of stream and on a read timeout alike.
        for (String mode : new String[] {"OFF", "SKIP"}) {
            try (RespClient c = new RespClient(target.host(), target.port())) {
                c.setTimeoutMillis(300);
                c.send(args("CLIENT", "REPLY", mode));
                c.send(args("QUIT"));
                c.send(args("PING"));
                assertThat(c.receivesNothing()).isTrue();
            }
        }
        try (RespClient c = new RespClient(target.host(), target.port())) {
            c.send(args("CLIENT", "REPLY", "OFF"));
            c.send(args("RESET"));
            assertThat(c.read().text()).isEqualTo("RESET");
        }
    }

    private static byte[][] args(String... parts) {
        byte[][] bytes = new byte[parts.length][];
        for (int i = 0; i < parts.length; i++) {
            bytes[i] = parts[i].getBytes(StandardCharsets.UTF_8);
        }
        return bytes;
    }

    private static String ownLine(RedisTarget target) {
        try (RespClient c = new RespClient(target.host(), target.port())) {
            return c.call("CLIENT", "INFO").text();
        }
    }

    /** The fields of the first line, in order. */
    private static Map<String, String> fields(String text) {
        String line = text.split("\n")[0];
        if (line.startsWith("txt:")) {
            line = line.substring(4);
        }
        Map<String, String> result = new LinkedHashMap<>();
        for (String part : line.split(" ")) {
            int eq = part.indexOf('=');
            result.put(part.substring(0, eq), part.substring(eq + 1));
        }
        return result;
    }
}
