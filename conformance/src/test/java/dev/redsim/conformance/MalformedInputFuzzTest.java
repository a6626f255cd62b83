package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Malformed input, on a fresh simulator and a fresh redis-server: several thousand seeded buffers ({@link
 * InputFuzzer}), each sent on a new connection whose sending side is then shut, as a script piping into the
 * server does. Each server answers what it can parse and closes at the end of the input (or at a protocol error);
 * the simulator must send exactly the bytes redis-server sends, and close where it closes. Meanwhile a bystander
 * keeps answering and another holds a transaction open, and at the end every database holds the same data on
 * both: nothing a malformed buffer does leaks past its own connection or half-applies.
 *
 * <p>redsim.fuzz.cases and redsim.fuzz.seed choose the run (the nightly profile runs more cases).
 */
class MalformedInputFuzzTest {
    private static final int CASES = Integer.getInteger("redsim.fuzz.cases", 5000);
    private static final long SEED = Long.getLong("redsim.fuzz.seed", 20261123L);
    /** Only a hang waits this long: both servers close a connection as soon as its input ends. */
    private static final int HANG_MILLIS = 10_000;

    /** What a server sent back on one connection, and how the connection ended. */
    private record Exchange(String replies, String ending) {
    }

    @Test
    void malformedInputIsAnsweredAsRedisAnswersItAndTouchesNothingElse() {
        try (RedisTarget redis = Targets.reference(); RedisTarget simulator = new SimulatorTarget();
             RespClient redisBystander = client(redis); RespClient simBystander = client(simulator);
             RespClient redisTransaction = client(redis); RespClient simTransaction = client(simulator)) {
            for (RespClient transaction : List.of(redisTransaction, simTransaction)) {
                transaction.call("MULTI");
                transaction.call("SET", "bystander", "kept");
            }
            InputFuzzer fuzzer = new InputFuzzer(new Random(SEED));
            List<String> differences = new ArrayList<>();
            for (int i = 0; i < CASES && differences.size() < 5; i++) {
                byte[] input = fuzzer.next();
                Exchange expected = exchange(redis, input);
                Exchange actual = exchange(simulator, input);
                if (!actual.equals(expected)) {
                    differences.add("case " + i + " input " + printable(input) + "\n  redis-server: " + expected
                            + "\n  simulator:    " + actual);
                }
                if (i % 100 == 0) {
                    assertThat(simBystander.call("PING").text()).as("a bystander, case " + i).isEqualTo("PONG");
                    assertThat(redisBystander.call("PING").text()).isEqualTo("PONG");
                }
            }
            assertThat(differences).as("cases (seed %d) where the simulator answered otherwise", SEED).isEmpty();
            assertThat(simTransaction.call("EXEC")).as("a transaction held open meanwhile")
                    .isEqualTo(redisTransaction.call("EXEC"));
            assertThat(snapshot(simBystander)).as("the data of every database").isEqualTo(snapshot(redisBystander));
        }
    }

    private static Exchange exchange(RedisTarget target, byte[] input) {
        ByteArrayOutputStream replies = new ByteArrayOutputStream();
        String ending;
        try (Socket socket = new Socket(target.host(), target.port())) {
            socket.setSoTimeout(HANG_MILLIS);
            try {
                socket.getOutputStream().write(input);
                socket.shutdownOutput();
            } catch (IOException closedEarly) {
                // the server closed first (a protocol error); what it answered is still to be read
            }
            ending = readToEnd(socket.getInputStream(), replies);
        } catch (IOException e) {
            throw new IllegalStateException("cannot connect to " + target.name(), e);
        }
        return new Exchange(replies.toString(StandardCharsets.ISO_8859_1), ending);
    }

    /** Reads until the server closes; a reset counts as closed (the kernel's choice, not the server's). */
    private static String readToEnd(InputStream in, ByteArrayOutputStream replies) {
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                replies.write(buffer, 0, n);
            }
            return "closed";
        } catch (SocketTimeoutException e) {
            return "still open after " + HANG_MILLIS + " ms";
        } catch (IOException e) {
            return "closed";
        }
    }

    /** Every key of every database with its type and contents, in a stable order. */
    private static String snapshot(RespClient client) {
        StringBuilder out = new StringBuilder();
        for (int db = 0; db < 16; db++) {
            client.call("SELECT", Integer.toString(db));
            TreeMap<String, String> keys = new TreeMap<>();
            for (RespValue key : client.call("KEYS", "*").children()) {
                String name = key.text();
                String type = client.call("TYPE", name).text();
                RespValue contents = switch (type) {
                    case "string" -> client.call("GET", name);
                    case "list" -> client.call("LRANGE", name, "0", "-1");
                    case "hash" -> client.call("HGETALL", name).sorted();
                    case "set" -> client.call("SMEMBERS", name).sorted();
                    case "zset" -> client.call("ZRANGE", name, "0", "-1", "WITHSCORES");
                    default -> client.call("DUMP", name);
                };
                keys.put(name, type + " " + contents);
            }
            if (!keys.isEmpty()) {
                out.append("db").append(db).append(' ').append(keys).append('\n');
            }
        }
        client.call("SELECT", "0");
        return out.toString();
    }

    private static String printable(byte[] input) {
        return HexFormat.of().formatHex(input) + " (" + new String(input, StandardCharsets.ISO_8859_1)
                .replace("\r", "\\r").replace("\n", "\\n") + ")";
    }

    private static RespClient client(RedisTarget target) {
        return new RespClient(target.host(), target.port());
    }
}
