package dev.redsim.simulator.engine;

import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.keyspace.Database;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * used_memory is kept as a running figure, adjusted on each write (decision 0011); a full recount of every key must
 * always agree with it. Random writes of every kind (in place, stores, deletes, expiry, renames, moves, scripts,
 * transactions, blocked clients served) run against one simulator, and the two figures are compared per database.
 */
class UsedMemoryTrackingTest {
    private static final String[] COMMANDS = {
        "SET %k %v", "APPEND %k %v", "SETRANGE %k %n %v", "INCR %k", "GETDEL %k", "GETEX %k EX 100",
        "LPUSH %k %v %v", "RPUSH %k %v", "LPOP %k", "RPOP %k 2", "LSET %k 0 %v", "LINSERT %k BEFORE %v %v",
        "LREM %k 0 %v", "LTRIM %k 1 -2", "LMOVE %k %k LEFT RIGHT", "HSET %k %v %v %v %v", "HDEL %k %v",
        "HINCRBY %k %v 3", "SADD %k %v %n %v", "SREM %k %v", "SPOP %k", "SMOVE %k %k %v", "SINTERSTORE %k %k %k",
        "ZADD %k %n %v %n %v", "ZREM %k %v", "ZINCRBY %k 2 %v", "ZPOPMIN %k", "ZUNIONSTORE %k 2 %k %k",
        "XADD %k * %v %v", "XTRIM %k MAXLEN 2", "XDEL %k 0-1", "PFADD %k %v %v", "SETBIT %k %n 1",
        "EXPIRE %k 100", "PERSIST %k", "PEXPIRE %k 1", "DEL %k", "UNLINK %k %k", "RENAME %k %k", "COPY %k %k REPLACE",
        "MOVE %k 1", "SORT %k STORE %k", "EVAL \"redis.call('rpush', KEYS[1], ARGV[1]) return 1\" 1 %k %v",
        "MULTI", "EXEC", "BITOP OR %k %k %k", "RESTORE %k 0 %d REPLACE", "SWAPDB 0 1",
        // a write's first key is measured once, at the end of its call (decision 0032): numbers stored and changed,
        // several keys of one call, a key named twice, and a script's write to its caller's first key
        "SET %k %n", "INCRBY %k %n", "DECR %k", "INCRBYFLOAT %k 1.5", "MSET %k %v %k %n %k %v", "MSETNX %k %v %k %v",
        "HSETNX %k %v %v", "HINCRBYFLOAT %k %v 2.5", "LPUSH %k %v", "SMOVE %k %k %n", "RPOPLPUSH %k %k",
        "EVAL \"redis.call('set', KEYS[1], ARGV[1]) redis.call('append', KEYS[1], ARGV[1]) return 1\" 1 %k %v",
    };

    @Test
    void theRunningFigureAgreesWithAFullRecountAfterRandomWrites() throws IOException {
        try (RedisSimulator simulator = RedisSimulator.start();
             Socket socket = new Socket(simulator.host(), simulator.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            Random random = new Random(20261123);
            StringBuilder batch = new StringBuilder("CLIENT REPLY OFF\r\n");
            for (int round = 0; round < 40; round++) {
                for (int i = 0; i < 500; i++) {
                    batch.append(command(random)).append("\r\n");
                }
                simulator.advanceTime(java.time.Duration.ofMillis(random.nextInt(3))); // lets PEXPIRE 1 keys expire
                batch.append("DISCARD\r\nCLIENT REPLY ON\r\n"); // a MULTI left open would queue it
                out.write(batch.toString().getBytes(StandardCharsets.UTF_8));
                out.flush();
                assertThat(in.readLine()).isEqualTo("+OK"); // every command before it ran
                batch.setLength(0);
                batch.append("CLIENT REPLY OFF\r\n");
                simulator.onEngine(() -> {
                    for (Database db : simulator.engine().databases()) {
                        assertThat(db.usedBytes()).as("db " + db.id()).isEqualTo(db.recountedBytes());
                    }
                    return null;
                });
            }
            long keys = simulator.onEngine(() -> (long) simulator.engine().database(0).size()
                    + simulator.engine().database(1).size());
            assertThat(keys).isPositive(); // the check saw data, not two empty databases
        }
    }

    private static String command(Random random) {
        String template = COMMANDS[random.nextInt(COMMANDS.length)];
        StringBuilder result = new StringBuilder();
        for (int i = 0; i < template.length(); i++) {
            char c = template.charAt(i);
            if (c == '%' && i + 1 < template.length()) {
                char kind = template.charAt(++i);
                switch (kind) {
                    case 'k' -> result.append("k").append(random.nextInt(12));
                    case 'v' -> result.append(random.nextBoolean() ? "v" + random.nextInt(20)
                            : "x".repeat(1 + random.nextInt(300)));
                    case 'n' -> result.append(random.nextInt(40));
                    // a DUMP of the string "v" (RDB 10), for RESTORE
                    case 'd' -> result.append("\"\\x00\\x01\\x76\\x0a\\x00\\x91\\x08\\xce\\xb2\\x19\\x38\\x8a\\xce\"");
                    default -> result.append('%').append(kind);
                }
            } else {
                result.append(c);
            }
        }
        return result.toString();
    }
}
