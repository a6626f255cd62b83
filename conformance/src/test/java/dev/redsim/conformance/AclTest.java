package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisServerTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The ACL behaviour that needs several connections, files or a fresh server: the ACL log with its entries, the
 * aclfile (ACL SAVE, ACL LOAD, users read at start), subscribers losing channels, CLIENT LIST's user field, and
 * rule descriptions whose single commands Redis lists in a per-process random order. Each runs the same steps on a
 * fresh simulator and a fresh redis-server and compares the replies; only what differs by nature is normalised
 * (client ids, addresses, ages and buffer sizes in client lines, file paths, the order of those single commands,
 * generated passwords).
 */
class AclTest {
    @TempDir
    Path dir;

    @Test
    void theLogRecordsRefusalsAsRedisDoes() {
        List<String> simulator = onBoth(this::logSession).get(0);
        // not vacuous: every kind of entry was made
        String all = String.join("\n", simulator);
        for (String expected : List.of("reason=auth", "reason=command", "reason=key", "reason=channel",
                "context=toplevel", "context=multi", "context=lua", "object=AUTH", "object=HELLO", "count=3",
                "cmd=exec", "cmd=eval", "user=lu", "object=b", "object=c")) {
            assertThat(all).contains(expected);
        }
        assertThat(all).doesNotContain("object=a "); // the oldest of three, beyond acllog-max-len 2
    }

    private List<String> logSession(RedisTarget target) {
        List<String> seen = new ArrayList<>();
        try (RespClient admin = client(target); RespClient c = client(target); RespClient d = client(target)) {
            admin.call("ACL", "SETUSER", "lu", "on", ">pw", "~k*", "&c*", "+@all", "-get", "-set");
            seen.add(c.call("AUTH", "lu", "wrong").toString());
            seen.add(c.call("AUTH", "nouser", "x").toString());
            seen.add(c.call("auth", "lu", "pw").toString());
            seen.add(c.call("CLIENT", "SETNAME", "logged").toString());
            for (int i = 0; i < 3; i++) {
                seen.add(c.call("GET", "k1").toString()); // grouped into one entry counting 3
            }
            seen.add(c.call("LPUSH", "x", "1").toString());
            seen.add(c.call("PUBLISH", "zz", "m").toString());
            seen.add(c.call("SUBSCRIBE", "c1", "zz").toString());
            seen.add(c.call("MULTI").toString());
            seen.add(c.call("LPUSH", "other", "1").toString());
            seen.add(c.call("DISCARD").toString());
            seen.add(c.call("MULTI").toString());
            seen.add(c.call("LPUSH", "k2", "1").toString());
            seen.add(admin.call("ACL", "SETUSER", "lu", "-lpush").toString());
            seen.add(c.call("EXEC").toString());
            seen.add(c.call("EVAL", "return redis.pcall('get','k')", "0").toString());
            seen.add(c.call("MULTI").toString());
            seen.add(c.call("AUTH", "lu", "wrong again").toString());
            seen.add(c.call("EXEC").toString()); // a failed AUTH run by EXEC
            seen.add(d.call("HELLO", "2", "AUTH", "lu", "bad").toString());
            seen.addAll(log(admin.call("ACL", "LOG")));
            seen.addAll(log(admin.call("ACL", "LOG", "2")));
            seen.add(admin.call("ACL", "LOG", "0").toString());
            seen.add(admin.call("ACL", "LOG", "-5").toString());
            seen.add(admin.call("ACL", "LOG", "RESET").toString());
            seen.add(admin.call("ACL", "LOG").toString());
            // at most acllog-max-len entries, the oldest dropped
            seen.add(admin.call("CONFIG", "SET", "acllog-max-len", "2").toString());
            for (String key : List.of("a", "b", "c")) {
                seen.add(c.call("HSET", key, "f", "v").toString()); // three keys refused: three entries
            }
            seen.addAll(log(admin.call("ACL", "LOG")));
            seen.add(admin.call("CONFIG", "SET", "acllog-max-len", "128").toString());
            try (RespClient resp3 = client(target)) {
                resp3.call("HELLO", "3");
                RespValue entries = resp3.call("ACL", "LOG", "1");
                seen.add(entries.type() + " " + entries.children().get(0).type() + " "
                        + entries.children().get(0).children().get(11).type()); // age-seconds is a double
            }
        }
        return seen;
    }

    /** The log's entries, each a line of "field=value", age and client details normalised. */
    private static List<String> log(RespValue reply) {
        List<String> lines = new ArrayList<>();
        for (RespValue entry : reply.children()) {
            StringBuilder line = new StringBuilder();
            List<RespValue> fields = entry.children();
            for (int i = 0; i < fields.size(); i += 2) {
                String name = fields.get(i).text();
                String value = fields.get(i + 1).text();
                if (name.equals("age-seconds")) {
                    assertThat(Double.parseDouble(value)).isBetween(0.0, 60.0);
                    value = "?";
                } else if (name.equals("client-info")) {
                    value = clientLine(value);
                }
                line.append(name).append('=').append(value).append(' ');
            }
            lines.add(line.toString().strip());
        }
        return lines;
    }

    private static final Pattern VOLATILE = Pattern.compile(
            "\\b(id|addr|laddr|fd|age|idle|qbuf|qbuf-free|argv-mem|multi-mem|rbs|rbp|obl|oll|omem|tot-mem)=\\S*");

    /** A CLIENT LIST line without what differs by nature between two servers. */
    static String clientLine(String line) {
        Matcher m = VOLATILE.matcher(line.strip());
        return m.replaceAll("$1=?");
    }

    @Test
    void theSimulatorsLogAgesOnItsOwnClock() {
        try (RedisSimulator simulator = RedisSimulator.builder().start();
             RespClient admin = new RespClient(simulator.host(), simulator.port());
             RespClient c = new RespClient(simulator.host(), simulator.port())) {
            simulator.freezeTime();
            admin.call("ACL", "SETUSER", "t", "on", "nopass", "+@all", "-get");
            c.call("AUTH", "t", "x");
            c.call("GET", "k");
            simulator.advanceTime(Duration.ofMillis(2500));
            RespValue entry = admin.call("ACL", "LOG").children().get(0);
            assertThat(entry.children().get(11).text()).isEqualTo("2.5");
            c.call("GET", "k"); // within a minute of the entry: counted on it
            simulator.advanceTime(Duration.ofSeconds(61));
            c.call("GET", "k"); // a minute later: a new entry
            RespValue log = admin.call("ACL", "LOG");
            assertThat(log.children()).hasSize(2);
            assertThat(log.children().get(0).children().get(1).asLong()).isEqualTo(1);
            assertThat(log.children().get(1).children().get(1).asLong()).isEqualTo(2);
            assertThat(log.children().get(1).children().get(11).text()).isEqualTo("61");
        }
    }

    @Test
    void theAclFileIsSavedAndLoadedAsRedisDoes() throws IOException {
        List<List<String>> sessions = new ArrayList<>();
        for (String side : List.of("simulator", "redis")) {
            Path file = Files.createDirectories(dir.resolve(side)).resolve("users.acl");
            Files.writeString(file, "user default on nopass ~* &* +@all\nuser a on >pw ~k* +get\n");
            try (RedisTarget target = start(side, "--aclfile", file.toString())) {
                sessions.add(fileSession(target, file));
            }
        }
        assertThat(sessions.get(0)).isEqualTo(sessions.get(1));
        assertThat(sessions.get(0)).contains("true"); // the other user's connection was closed by ACL LOAD
    }

    private List<String> fileSession(RedisTarget target, Path file) throws IOException {
        List<String> seen = new ArrayList<>();
        Function<RespValue, String> inFile = reply -> reply.toString().replace(file.toString(), "<aclfile>");
        try (RespClient admin = client(target); RespClient a = client(target)) {
            seen.add(admin.call("ACL", "LIST").toString()); // read at start
            seen.add(a.call("AUTH", "a", "pw").toString());
            seen.add(admin.call("ACL", "SETUSER", "b", "on", "#" + "2".repeat(64), "%R~r*", "%W~w*", "resetchannels",
                    "&ch", "-@all", "+@hash", "+select|0", "(+get ~x)", "(~y* +set)").toString());
            seen.add(admin.call("ACL", "SETUSER", "c", "off", "allkeys", "allchannels", "+@all", "-flushall")
                    .toString());
            seen.add(admin.call("ACL", "SAVE").toString());
            seen.add(Files.readString(file));
            // the file read back: every connection of another user than default is closed (its user is replaced)
            seen.add(admin.call("ACL", "LOAD").toString());
            seen.add(Boolean.toString(a.closedByServer()));
            seen.add(admin.call("ACL", "LIST").toString());
            seen.add(admin.call("ACL", "WHOAMI").toString());
            // errors: nothing changes
            Files.writeString(file, "user a on >x +nosuch ~k\n  \n# comment\nusr b\nuser\nuser a on\n"
                    + "user c (+get\nuser d on +@nope %X~x\nuser e\tx on\nuser f on (+get ~x) ( +set ) >p\tx\n");
            seen.add(inFile.apply(admin.call("ACL", "LOAD")));
            seen.add(admin.call("ACL", "LIST").toString());
            // tabs, carriage returns, repeated spaces and blank lines are accepted
            Files.writeString(file, "user f on (+get ~x) ( +set ) >p\tx\n\nuser g   on\r\n user h\nuser default off"
                    + " >dpw ~* &* +@all\n");
            seen.add(admin.call("ACL", "LOAD").toString());
            seen.add(admin.call("ACL", "LIST").toString());
            seen.add(admin.call("PING").toString()); // the default user's connections stay
            try (RespClient fresh = client(target)) {
                seen.add(fresh.call("PING").toString());
                seen.add(fresh.call("AUTH", "dpw").toString());
                seen.add(fresh.call("AUTH", "f", "p\tx").toString());
                seen.add(fresh.call("ACL", "WHOAMI").toString());
            }
            Files.writeString(file, "");
            seen.add(admin.call("ACL", "LOAD").toString()); // no default user in the file: the built-in one
            seen.add(admin.call("ACL", "LIST").toString());
            Files.delete(file);
            seen.add(inFile.apply(admin.call("ACL", "LOAD")));
            seen.add(admin.call("ACL", "SAVE").toString());
            seen.add(Files.readString(file));
            Files.delete(file);
            Files.delete(file.getParent()); // nowhere to write the file any more
            seen.add(admin.call("ACL", "SAVE").toString());
        }
        return seen;
    }

    @Test
    void aBadAclFileStopsTheStart() throws IOException {
        Path file = dir.resolve("bad.acl");
        Files.writeString(file, "user a on +nosuch\n");
        assertThatThrownBy(() -> RedisSimulator.builder().config("aclfile", file.toString()).start())
                .hasMessageContaining("Error in applying operation '+nosuch'");
        assertThatThrownBy(() -> RedisSimulator.builder().config("aclfile", dir.resolve("missing.acl").toString())
                .start()).hasMessageContaining("No such file or directory");
        requireRedisServer();
        assertThatThrownBy(() -> RedisServerTarget.start("--aclfile", file.toString()).close())
                .hasMessageContaining("could not start redis-server");
    }

    @Test
    void subscribersThatLoseAChannelAreDisconnected() {
        List<List<String>> sessions = onBoth(this::subscriberSession);
        assertThat(sessions.get(0)).contains("closed", "open open open", "open closed open", "open open closed",
                "closed open closed");
    }

    private List<String> subscriberSession(RedisTarget target) {
        List<String> seen = new ArrayList<>();
        try (RespClient admin = client(target); RespClient all = client(target); RespClient channel = client(target);
             RespClient pattern = client(target); RespClient plain = client(target);
             RespClient shard = client(target)) {
            seen.add(admin.call("ACL", "SETUSER", "ps", "on", "nopass", "~*", "allchannels", "+@all").toString());
            for (RespClient c : List.of(all, channel, pattern, plain, shard)) {
                seen.add(c.call("AUTH", "ps", "x").toString());
            }
            seen.add(all.call("SUBSCRIBE", "foo").toString());
            // from all channels to some: the subscriber of foo goes, the others stay
            seen.add(admin.call("ACL", "SETUSER", "ps", "resetchannels", "&news*", "&bar").toString());
            seen.add(state(all));
            seen.add(channel.call("SUBSCRIBE", "news1").toString());
            seen.add(pattern.call("PSUBSCRIBE", "news*").toString());
            seen.add(plain.call("GET", "k").toString());
            seen.add(shard.call("SSUBSCRIBE", "news2").toString());
            // more channels: nobody goes
            seen.add(admin.call("ACL", "SETUSER", "ps", "&other").toString());
            seen.add(state(channel) + " " + state(pattern) + " " + state(plain));
            // a pattern rule that still matches the channel, but the subscribed pattern is not literally allowed
            seen.add(admin.call("ACL", "SETUSER", "ps", "resetchannels", "&news1", "&new*").toString());
            seen.add(state(channel) + " " + state(pattern) + " " + state(plain));
            seen.add(admin.call("ACL", "SETUSER", "ps", "resetchannels", "(&news1)").toString());
            seen.add(state(channel) + " " + state(plain) + " " + state(shard));
            seen.add(admin.call("ACL", "SETUSER", "ps", "resetchannels", "&news2", "clearselectors").toString());
            seen.add(state(channel) + " " + state(plain) + " " + state(shard));
            seen.add(admin.call("ACL", "DELUSER", "ps").toString());
            seen.add(state(plain));
        }
        return seen;
    }

    /** "closed" when the server closed the connection, else "open" (a PING answered). */
    private static String state(RespClient client) {
        try {
            RespValue pong = client.call("PING");
            return pong.isError() ? "error " + pong : "open";
        } catch (RuntimeException closed) {
            return "closed";
        }
    }

    @Test
    void clientListShowsEachConnectionsUser() {
        List<List<String>> sessions = onBoth(target -> {
            List<String> seen = new ArrayList<>();
            try (RespClient admin = client(target); RespClient c = client(target)) {
                admin.call("ACL", "SETUSER", "cl", "on", "nopass", "+@all", "~*");
                c.call("AUTH", "cl", "x");
                seen.add(clientLine(c.call("CLIENT", "INFO").text()));
                for (String line : admin.call("CLIENT", "LIST").text().split("\n")) {
                    seen.add(clientLine(line));
                }
                seen.add(c.call("RESET").toString());
                seen.add(clientLine(c.call("CLIENT", "INFO").text()));
            }
            return seen;
        });
        assertThat(String.join("\n", sessions.get(0))).contains("user=cl", "user=default");
    }

    @Test
    void rulesWithSeveralSingleCommandsDescribeTheSameBitmap() {
        List<String[]> rules = List.of(
                new String[] {"nocommands", "+@string", "-@write"},
                new String[] {"-@all", "+@fast", "-@write"},
                new String[] {"-@all", "+@slow", "+@blocking", "+@scripting", "+@transaction"},
                new String[] {"+@all", "-get", "-set", "-hset", "-lpush", "-zadd", "-xadd"},
                new String[] {"-@all", "+@read", "-@dangerous", "+set", "+hset", "+config|get", "+client|list"},
                new String[] {"+@all", "-@admin", "+config|get", "+acl|whoami", "-@keyspace", "+del"},
                new String[] {"-@all", "+get", "(+set +lpush ~a)", "(-@all +@geo -geoadd -geosearchstore)"});
        List<List<String>> sessions = onBoth(target -> {
            List<String> seen = new ArrayList<>();
            try (RespClient admin = client(target)) {
                for (String[] ruleSet : rules) {
                    List<String> args = new ArrayList<>(List.of("ACL", "SETUSER", "r", "reset"));
                    args.addAll(Arrays.asList(ruleSet));
                    seen.add(admin.call(args.toArray(new String[0])).toString());
                    for (RespValue line : admin.call("ACL", "LIST").children()) {
                        seen.add(singlesSorted(line.text()));
                    }
                }
                admin.call("ACL", "DELUSER", "r");
            }
            return seen;
        });
        assertThat(sessions.get(0)).contains("user r off sanitize-payload resetchannels "
                + "+@all -get -hset -lpush -set -xadd -zadd");
    }

    /**
     * A user line with the single-command rules of each selector in name order: Redis writes them in the order of
     * its command hash table, whose seed changes with each start.
     */
    static String singlesSorted(String line) {
        Matcher selectors = Pattern.compile("([+-]@all(?: [^()]*?)?)(?= \\(|\\)|$)").matcher(line);
        StringBuilder out = new StringBuilder();
        int last = 0;
        while (selectors.find()) {
            out.append(line, last, selectors.start());
            List<String> categories = new ArrayList<>();
            List<String> singles = new ArrayList<>();
            for (String token : selectors.group(1).split(" ")) {
                (token.length() > 1 && token.charAt(1) == '@' ? categories : singles).add(token);
            }
            singles.sort(null);
            out.append(String.join(" ", categories));
            if (!singles.isEmpty()) {
                out.append(' ').append(String.join(" ", singles));
            }
            last = selectors.end();
        }
        return out.append(line.substring(last)).toString();
    }

    @Test
    void aConnectionMadeWhileAPasswordWasNeededIsLetInWhenItNoLongerIs() {
        List<List<String>> sessions = onBoth(target -> {
            List<String> seen = new ArrayList<>();
            try (RespClient admin = client(target)) {
                seen.add(admin.call("CONFIG", "SET", "requirepass", "pw").toString());
                try (RespClient early = client(target)) {
                    seen.add(early.call("PING").toString());
                    seen.add(admin.call("CONFIG", "SET", "requirepass", "").toString());
                    seen.add(early.call("PING").toString()); // Redis asks the default user now (authRequired)
                    String[] eleven = new String[11];
                    Arrays.fill(eleven, "a");
                    eleven[0] = "ECHO";
                    seen.add(early.call(eleven).toString()); // no longer held to the unauthenticated limits
                    seen.add(early.call("HELLO", "2").toString()); // but HELLO asks whether it authenticated
                    seen.add(early.call("AUTH", "default", "any").toString());
                    seen.add(early.call("HELLO", "2").children().get(0).toString());
                }
            }
            return seen;
        });
        assertThat(sessions.get(0).get(3)).isEqualTo("+PONG\\r\\n"); // RespValue escapes
    }

    @Test
    void generatedPasswordsHaveTheAskedLength() {
        List<List<String>> sessions = onBoth(target -> {
            List<String> seen = new ArrayList<>();
            try (RespClient c = client(target)) {
                for (String bits : List.of("", "1", "4", "5", "255", "4096")) {
                    RespValue reply = bits.isEmpty() ? c.call("ACL", "GENPASS") : c.call("ACL", "GENPASS", bits);
                    String password = reply.text();
                    seen.add(bits + ":" + password.length() + ":" + password.matches("[0-9a-f]+"));
                }
            }
            return seen;
        });
        assertThat(sessions.get(0)).contains(":64:true", "4096:1024:true");
    }

    /**
     * Connections made before any ACL command (the simulator's ACL is made on first use: decision 0035) run as the
     * default user, so a change of the default user's rules reaches them, as it reaches every connection in Redis;
     * and a requirepass set meanwhile is asked of new connections and accepted by AUTH.
     */
    @Test
    void connectionsFromBeforeTheFirstAclCommandFollowTheDefaultUsersRules() {
        List<List<String>> sessions = onBoth(target -> {
            List<String> seen = new ArrayList<>();
            try (RespClient early = client(target); RespClient admin = client(target)) {
                seen.add(early.call("SET", "free", "1").toString());
                seen.add(admin.call("ACL", "SETUSER", "default", "resetkeys", "~allowed*", "-lpush").toString());
                seen.add(early.call("GET", "free").toString());
                seen.add(early.call("GET", "allowed1").toString());
                seen.add(early.call("LPUSH", "allowed2", "x").toString());
                seen.add(early.call("ACL", "WHOAMI").toString());
                seen.add(admin.call("ACL", "SETUSER", "default", "~*", "+@all").toString());
                seen.add(early.call("GET", "free").toString());
            }
            try (RespClient before = client(target)) {
                seen.add(before.call("CONFIG", "SET", "requirepass", "pw").toString());
                try (RespClient after = client(target)) {
                    seen.add(after.call("GET", "free").toString());
                    seen.add(after.call("AUTH", "wrong").toString());
                    seen.add(after.call("AUTH", "default", "pw").toString());
                    seen.add(after.call("GET", "free").toString());
                }
                seen.add(before.call("GET", "free").toString());
            }
            return seen;
        });
        assertThat(sessions.get(0).get(2)).startsWith("-NOPERM"); // the early connection saw the new rules
        assertThat(sessions.get(0).get(9)).startsWith("-NOAUTH");
    }

    /** On a fresh server, a password given with AUTH before any ACL command is checked as Redis checks it. */
    @Test
    void authBeforeAnyAclCommandChecksRequirepass() {
        onBoth(target -> {
            List<String> seen = new ArrayList<>();
            try (RespClient c = client(target)) {
                seen.add(c.call("AUTH", "pw").toString());
                seen.add(c.call("AUTH", "default", "pw").toString());
                seen.add(c.call("AUTH", "nobody", "pw").toString());
                seen.add(c.call("CLIENT", "KILL", "USER", "nobody").toString());
                seen.add(c.call("CLIENT", "KILL", "USER", "default", "SKIPME", "yes").toString());
                seen.add("logged nobody: " + c.call("ACL", "LOG").toString().contains("nobody"));
            }
            return seen;
        });
    }

    // ---- targets ----

    /** The session on a fresh simulator, then on a fresh redis-server; the two must be equal. */
    private List<List<String>> onBoth(Function<RedisTarget, List<String>> session) {
        List<List<String>> results = new ArrayList<>();
        for (String side : List.of("simulator", "redis")) {
            try (RedisTarget target = start(side)) {
                results.add(session.apply(target));
            }
        }
        assertThat(results.get(0)).isEqualTo(results.get(1));
        return results;
    }

    private static RedisTarget start(String side, String... options) {
        if (side.equals("simulator")) {
            RedisSimulator.Builder builder = RedisSimulator.builder();
            Map<String, String> config = new HashMap<>();
            for (int i = 0; i + 1 < options.length; i += 2) {
                config.put(options[i].substring(2), options[i + 1]);
            }
            config.forEach(builder::config);
            return new SimulatorTarget(builder.start());
        }
        requireRedisServer();
        return RedisServerTarget.start(options);
    }

    /** A fresh redis-server is needed (options, files): skipped without one locally, failing where required. */
    private static void requireRedisServer() {
        if (!RedisServerTarget.available()) {
            String message = "redis-server is not on PATH: the ACL comparisons cannot run";
            if (Targets.realRedisRequired()) {
                throw new IllegalStateException(message);
            }
            throw new TestAbortedException(message);
        }
    }

    private static RespClient client(RedisTarget target) {
        return new RespClient(target.host(), target.port());
    }
}
