package dev.redsim.conformance.replication;

import dev.redsim.conformance.resp.BlockedClientsProbe;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisServerTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replication stream, compared command by command with redis-server's: each history runs on a fresh simulator
 * and a fresh redis-server, both masters with a raw replica attached (PSYNC ? -1, the RDB read and set aside),
 * step by step on both (so that times computed from each server's clock stay close); then a sentinel SET marks
 * the end, and everything each replica received after the RDB is compared ({@link StreamComparison} lists the
 * normalisations). Active expiry is off on both (DEBUG SET-ACTIVE-EXPIRE 0), so a key that expired is removed
 * where a command finds it, as a step of the history, not when a timer happens to run.
 */
class ReplicationStreamTest {
    private static final List<String> SENTINEL = List.of("SET", "__end_of_history__", "1");

    static Stream<StreamHistory> histories() {
        return Stream.of(
                StreamHistory.of("strings",
                        "SET a 1", "SET b 2 EX 100", "SET b 3 PX 100000 NX", "SET c 3 PXAT 99999999999999 GET",
                        "SET k2 v EXAT 99999999999 NX", "SET d v GET", "SET d v XX get", "SET d v KEEPTTL GET",
                        "SET d w KEEPTTL", "SETEX e 100 v", "PSETEX e 100000 v", "GETSET g 1", "GETDEL g",
                        "GETDEL nokey", "INCRBYFLOAT f 1.5", "INCRBYFLOAT f 2.25", "SET t 1 EX 100",
                        "INCRBYFLOAT t 1", "APPEND ap x", "SETRANGE ap 0 y", "SETNX ap z", "MSETNX a1 1 a2 2",
                        "MSETNX a1 1 a3 3", "INCR n", "DECRBY n 5", "INCRBY n 3", "MSET m1 1 m2 2",
                        "SETBIT bits 1 1", "BITFIELD bf SET u8 0 1 GET u8 0", "BITFIELD bf GET u8 0",
                        "BITOP AND bo bits bf", "PFADD hll a b", "PFADD hll a"),
                StreamHistory.of("expiry commands",
                        "SET c v", "GETEX c EX 100", "GETEX c PX 100000", "GETEX c EXAT 99999999999",
                        "GETEX c PXAT 99999999999999", "GETEX c PERSIST", "GETEX c PERSIST", "GETEX c",
                        "GETEX c PXAT 1", "GETEX nokey EX 10", "SET a 1", "EXPIRE a 100", "PEXPIRE a 100000 XX",
                        "EXPIRE a 100 NX", "EXPIREAT a 99999999999", "PEXPIREAT a 99999999999999 GT",
                        "EXPIRE nokey 100", "PERSIST a", "PERSIST a", "EXPIRE a -1", "SET b 1",
                        "PEXPIREAT b 1", "SET c 1", "EXPIREAT c 1 NX"),
                StreamHistory.of("lists",
                        "RPUSH l a b c d e f g h i", "BLPOP l 0", "BRPOP l 0", "BLMOVE l l2 LEFT RIGHT 0",
                        "BRPOPLPUSH l l2 0", "LMOVE l l2 right left", "RPOPLPUSH l l2", "LMPOP 1 l LEFT COUNT 1",
                        "BLMPOP 0 1 l2 RIGHT COUNT 10", "LMPOP 2 nokey l RIGHT", "LPOP l 5", "LPUSHX nolist a",
                        "LPOP nokey", "BLPOP nokey 0.01", "RPUSH r 1 2 3 2", "LREM r 0 2", "LSET r 0 x",
                        "LINSERT r BEFORE x y", "LTRIM r 0 0", "LTRIM r 0 0", "SORT r ALPHA STORE sorted",
                        "SORT nokey STORE sorted2"),
                StreamHistory.of("blocked clients served",
                        "& BLPOP bl 0", "& BLPOP bl 0", "& BLMOVE bl2 dst LEFT LEFT 0", "& BRPOPLPUSH bq dq 0",
                        "& BZPOPMIN bz 0", "& BLMPOP 0 1 bl3 LEFT COUNT 3", "& BZMPOP 0 1 bz2 MIN COUNT 3",
                        "& BZPOPMAX bz3 0", "& BLMOVE bl4 dst2 RIGHT RIGHT 0",
                        "RPUSH bl a b c", "RPUSH bl2 a", "RPUSH bq a", "ZADD bz 1 a", "RPUSH bl3 a b",
                        "ZADD bz2 1 a 2 b", "ZADD bz3 1 a 2 b", "RPUSH bl4 x y"),
                StreamHistory.of("sorted sets",
                        "ZADD z 1 a 2 b 3 c 4 d 5 e 6 f", "BZPOPMIN z 0", "BZPOPMAX z 0", "ZMPOP 1 z MIN COUNT 1",
                        "BZMPOP 0 1 z MAX", "ZMPOP 1 z MIN COUNT 10", "ZPOPMIN z", "ZADD z 1 a 2 b",
                        "ZPOPMAX z 10", "ZADD zz INCR 1 a", "ZINCRBY zz 1 a", "ZUNIONSTORE zu 1 zz", "ZREM zz nope",
                        "ZADD zz XX 5 nope", "GEOADD geo NX CH 13.361389 38.115556 a",
                        "GEOADD geo 15.087269 37.502669 b", "GEOADD geo NX 15 37 b",
                        "ZREMRANGEBYSCORE zz 0 100"),
                StreamHistory.of("hashes and sets",
                        "HSET h a 1", "HINCRBYFLOAT h f 1.5", "HINCRBYFLOAT h f 0.25", "HINCRBY h a 2",
                        "HDEL h zz", "HSETNX h a 1", "HSETNX h b 1", "HDEL h a", "SADD s a", "SPOP s",
                        "SPOP s", "SADD s a b c", "SPOP s 5", "SADD s2 a b", "SPOP s2 0", "SPOP s2 2",
                        "SADD s3 a", "SMOVE s3 s4 a", "SMOVE s3 s4 a", "SINTERSTORE si none1 none2",
                        "SET si x", "SINTERSTORE si none1 none2", "SADD u 1 2", "SUNIONSTORE u2 u u",
                        "SREM u 1 3", "SREM u 9"),
                StreamHistory.of("spop chooses members",
                        "@random-members", "SADD big 1 2 3 4 5 6 7 8 9 10 11 12", "SPOP big 3", "SPOP big",
                        "SPOP big 7", "SADD strs a b c d e f", "SPOP strs 2"),
                StreamHistory.of("transactions",
                        "MULTI", "SET m 1", "GET m", "EXEC", "MULTI", "SET m 1", "SET n 1", "EXEC",
                        "MULTI", "SELECT 6", "SET q 1", "SELECT 7", "SET q 2", "EXEC", "SELECT 0", "MULTI",
                        "GET x", "EXEC", "MULTI", "INCR x", "EXPIRE x 100", "EXEC", "MULTI", "BLPOP emptyl 0",
                        "RPUSH emptyl a", "BLPOP emptyl 0", "EXEC", "MULTI", "SET z 1", "DISCARD",
                        "MULTI", "SPOP noset", "GETDEL nokey", "EXEC"),
                StreamHistory.of("scripts and functions",
                        "EVAL \"redis.call('set','e1','1')\" 0",
                        "EVAL \"redis.call('set','e1','1'); redis.call('set','e2','1','ex','10')\" 0",
                        "EVAL \"return 1\" 0", "EVAL \"return redis.call('get','e1')\" 0",
                        "EVAL \"redis.call('select', 5); redis.call('set','x','1'); redis.call('select',0);"
                                + " redis.call('set','y','1')\" 0",
                        "SELECT 4", "EVAL \"redis.call('set','x','1')\" 0", "SELECT 0",
                        "EVAL \"redis.call('incrbyfloat', KEYS[1], '1.5'); redis.call('rpush', KEYS[2], 'a');"
                                + " redis.call('blpop', KEYS[2], 0)\" 2 fl li",
                        "FUNCTION LOAD \"#!lua name=lib\\nredis.register_function('f', function(keys, args)"
                                + " return redis.call('set', keys[1], '1') end)\"",
                        "FCALL f 1 fk", "FUNCTION DELETE lib", "SCRIPT LOAD \"return 1\"", "SCRIPT FLUSH",
                        "FUNCTION FLUSH", "FUNCTION FLUSH", "MULTI", "EVAL \"redis.call('set','t1','1')\" 0",
                        "SET t2 2", "EXEC"),
                StreamHistory.of("databases and server",
                        "SELECT 3", "SET x 1", "SELECT 0", "SET y 1", "SWAPDB 0 3", "SELECT 3", "MOVE y 2",
                        "COPY x x2", "COPY x x3 DB 5", "RENAME x xr", "RENAMENX xr x2", "DEL nokey", "DEL x2 xr",
                        "UNLINK x3", "PUBLISH ch hi", "FLUSHDB", "SELECT 0", "SET z 1", "FLUSHALL",
                        "FLUSHALL", "FLUSHDB ASYNC"),
                StreamHistory.of("expired keys",
                        "SET pa 1 PXAT 1000", "GET pa", "SET pb 1 PXAT 1000", "SET pb 2", "MULTI",
                        "SET pc 1 PXAT 1000", "GET pc", "EXEC", "SET pd 1 PXAT 1000", "EXISTS pd",
                        "SET pe 1 PXAT 1000", "EVAL \"return redis.call('get', KEYS[1])\" 1 pe",
                        "SELECT 2", "SET pf 1 PXAT 1000", "SELECT 0", "SET pg 1 PXAT 1000",
                        "EVAL \"redis.call('select', 2); redis.call('get','pf'); redis.call('select', 0);"
                                + " redis.call('incr','pg')\" 0"),
                StreamHistory.of("streams",
                        "XADD st * f v", "XADD st MAXLEN ~ 1 * f v", "XADD st MAXLEN 1 * f v",
                        "XTRIM st MAXLEN ~ 0", "XTRIM st MAXLEN 0", "XADD st 5-1 f v", "XADD nos NOMKSTREAM * f v",
                        "XADD st2 1-1 a 1", "XADD st2 2-1 a 2", "XADD st2 3-1 a 3", "XGROUP CREATE st2 g 0",
                        "XGROUP SETID st2 g 1-1", "XGROUP CREATECONSUMER st2 g c9", "XGROUP DELCONSUMER st2 g c9",
                        "XSETID st2 10-1", "XDEL st2 2-1", "XDEL st2 2-1", "XGROUP CREATE st3 g2 $ MKSTREAM",
                        "XGROUP DESTROY st3 g2", "XTRIM st2 MINID 3-1", "XADD st2 MINID ~ 3-1 11-1 a 4"),
                StreamHistory.of("more writes, and writes that change nothing",
                        "HMSET h a 1 b 2", "HSET h a 1", "HDEL h a b", "HDEL h a", "RPUSHX nolist a", "LPUSH l 3 1 2",
                        "RPUSHX l 4", "LPUSHX l 0", "LREM l 0 nope", "LSET l 0 x", "LINSERT l BEFORE nope y",
                        "SORT l BY nosort STORE ls", "SORT l LIMIT 0 1 ALPHA DESC STORE ls2", "DECR d", "MSET a 1 b 2",
                        "SETRANGE a 0 \"\"", "APPEND a \"\"", "SADD s1 a b c", "SADD s2 b", "SADD s1 a",
                        "SDIFFSTORE sd s1 s2", "SDIFFSTORE sd nokey", "SREM s1 nope", "SMOVE s1 s2 b",
                        "ZADD z1 1 a 2 b 3 c", "ZADD z2 1 b", "ZADD z1 1 a", "ZADD z1 GT 0 a", "ZDIFFSTORE zd 2 z1 z2",
                        "ZINTERSTORE zi 2 z1 z2", "ZRANGESTORE zr z1 0 1", "ZRANGESTORE zr nokey 0 1",
                        "ZREMRANGEBYLEX z1 [x [z", "ZREMRANGEBYRANK z1 0 0", "ZREMRANGEBYSCORE z1 100 200",
                        "ZREM z1 nope", "ZINCRBY z1 0 c",
                        "GEOADD g 13.361389 38.115556 Palermo 15.087269 37.502669 Catania",
                        "GEORADIUS g 15 37 200 km STORE gr", "GEORADIUSBYMEMBER g Palermo 200 km STOREDIST grd",
                        "GEOSEARCHSTORE gs g FROMMEMBER Palermo BYRADIUS 10 km", "GEOSEARCHSTORE gs2 g FROMLONLAT 0 0"
                                + " BYRADIUS 1 km", "PFADD p1 a", "PFADD p2 b", "PFMERGE pm p1 p2", "PFMERGE pm",
                        "PFADD p1", "PFADD newhll", "SETBIT bits 3 0", "SETBIT bits 3 1", "SETBIT bits 3 1",
                        "BITOP NOT bn nokey", "BITFIELD bf GET u8 0", "RENAME a a", "COPY b b2", "COPY b b2",
                        "COPY b b2 REPLACE", "MOVE nokey 1", "PERSIST nokey", "SWAPDB 0 0",
                        "EXPIRE b 100 GT", "PEXPIRE b 100000 LT", "INCRBY i 0", "INCRBYFLOAT i 0",
                        "HINCRBY h2 f 0", "XADD st 1-1 a 1", "XDEL st 9-9", "XTRIM st MAXLEN 5",
                        "XSETID st 1-1", "XGROUP CREATE st g 0 ENTRIESREAD 1", "XGROUP SETID st g $ ENTRIESREAD 1"),
                StreamHistory.of("stream consumer groups",
                        "XADD st 1-1 f v", "XADD st 2-1 f v", "XADD st 3-1 f v", "XADD st 4-1 f v",
                        "XGROUP CREATE st g 0", "XREADGROUP GROUP g c1 COUNT 1 STREAMS st >",
                        "XREADGROUP GROUP g c1 COUNT 1 NOACK STREAMS st >", "XREADGROUP GROUP g c1 STREAMS st 0",
                        "XREADGROUP GROUP g c2 STREAMS st 0", "XCLAIM st g c2 0 1-1", "XCLAIM st g c2 0 1-1 JUSTID",
                        "XCLAIM st g c3 0 1-1 2-1 9-9 LASTID 3-1", "XCLAIM st g c3 0 9-9 LASTID 3-2",
                        "XCLAIM st g c3 0 1 RETRYCOUNT 7 IDLE 10", "XAUTOCLAIM st g c4 0 0 COUNT 1",
                        "XAUTOCLAIM st g c4 0 0 COUNT 1 JUSTID", "XAUTOCLAIM st g c4 0 5 COUNT 1 JUSTID",
                        "XREADGROUP GROUP g c1 COUNT 5 STREAMS st >", "XREADGROUP GROUP g c5 STREAMS st >",
                        "XACK st g 1-1 8-8", "XACK st g 8-8", "XGROUP CREATE st g3 0",
                        "XREADGROUP GROUP g3 c1 NOACK STREAMS st >", "XADD st 5-1 f v", "XADD st 6-1 f v",
                        "XREADGROUP GROUP g3 c1 COUNT 2 STREAMS st >", "XDEL st 4-1",
                        "XCLAIM st g c6 0 4-1 5-1 FORCE", "XAUTOCLAIM st g c7 0 0",
                        "XGROUP CREATE st g4 0", "XREADGROUP GROUP g4 c1 COUNT 2 STREAMS st >",
                        "XDEL st 1-1", "XAUTOCLAIM st g4 c2 0 0 COUNT 10"),
                StreamHistory.of("blocked stream readers served",
                        "XADD st 1-1 f v", "XGROUP CREATE st g $", "XGROUP CREATE st g2 $",
                        "& XREADGROUP GROUP g c9 BLOCK 0 STREAMS st >",
                        "& XREADGROUP GROUP g2 c9 BLOCK 0 NOACK STREAMS st >",
                        "& XREAD BLOCK 0 STREAMS st $", "XADD st 2-1 f v",
                        "& XREADGROUP GROUP g c8 BLOCK 0 COUNT 10 STREAMS st >", "XADD st 3-1 f v"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("histories")
    void theSimulatorsStreamIsRedisServers(StreamHistory history) {
        try (RedisTarget redis = reference();
             SimulatorTarget simulator = new SimulatorTarget(RedisSimulator.builder()
                     .config("enable-debug-command", "yes").start())) {
            List<List<String>> redisStream;
            List<List<String>> simulatorStream;
            try (Run onRedis = new Run(redis); Run onSimulator = new Run(simulator)) {
                for (StreamHistory.Step step : history.steps()) {
                    onSimulator.run(step);
                    onRedis.run(step);
                }
                simulatorStream = onSimulator.finish();
                redisStream = onRedis.finish();
            }
            String difference = StreamComparison.difference(StreamComparison.withoutPings(redisStream),
                    StreamComparison.withoutPings(simulatorStream), history.randomMembers());
            assertThat(difference).as("redis-server: %s%nsimulator:    %s", redisStream, simulatorStream).isNull();
            assertThat(redisStream).as("the history wrote something").isNotEmpty();
        }
    }

    /** redis-server with DEBUG allowed (for SET-ACTIVE-EXPIRE); skipped or failed as Targets.reference() says. */
    static RedisTarget reference() {
        if (!RedisServerTarget.available()) {
            return Targets.reference(); // skips here, fails in CI, or is the server REDIS_URL names
        }
        return RedisServerTarget.start("--enable-debug-command", "yes");
    }

    /** One history on one master: its client, its blocked clients, its replica link. */
    private static final class Run implements AutoCloseable {
        private final RedisTarget target;
        private final RespClient client;
        private final ReplicaLinkClient replica;
        private final List<RespClient> blockedClients = new ArrayList<>();

        Run(RedisTarget target) {
            this.target = target;
            this.client = new RespClient(target.host(), target.port());
            client.call("DEBUG", "SET-ACTIVE-EXPIRE", "0");
            client.call("CONFIG", "SET", "repl-ping-replica-period", "3600");
            this.replica = new ReplicaLinkClient(target.host(), target.port()).fullSync(4242);
            assertThat(replica.fullResyncLine()).startsWith("+FULLRESYNC ");
            assertThat(new String(replica.rdb(), 0, 9, java.nio.charset.StandardCharsets.US_ASCII))
                    .isEqualTo("REDIS0010");
        }

        void run(StreamHistory.Step step) {
            if (step.blocks()) {
                RespClient blocked = new RespClient(target.host(), target.port());
                blockedClients.add(blocked);
                try (RespClient admin = new RespClient(target.host(), target.port())) {
                    var matcher = java.util.regex.Pattern.compile("blocked_clients:(\\d+)")
                            .matcher(admin.call("INFO", "clients").text());
                    long before = matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
                    blocked.send(step.args());
                    BlockedClientsProbe.require(admin, before + 1); // earlier ones may have been served
                }
            } else {
                client.call(step.args());
            }
        }

        /** Everything the replica received up to the sentinel write (excluded). */
        List<List<String>> finish() {
            client.call("SELECT", "0");
            client.call(SENTINEL.toArray(new String[0]));
            List<List<String>> stream = new ArrayList<>();
            for (List<String> command = replica.readCommand(); !command.equals(SENTINEL);
                 command = replica.readCommand()) {
                stream.add(command);
            }
            return stream;
        }

        @Override
        public void close() {
            blockedClients.forEach(RespClient::close);
            replica.close();
            client.close();
        }
    }
}
