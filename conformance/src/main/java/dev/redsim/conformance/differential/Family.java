package dev.redsim.conformance.differential;

import dev.redsim.conformance.property.Gen;

import java.util.ArrayList;
import java.util.List;

import static dev.redsim.conformance.differential.Vocabulary.KEY;
import static dev.redsim.conformance.differential.Vocabulary.LEX_BOUND;
import static dev.redsim.conformance.differential.Vocabulary.MEMBER;
import static dev.redsim.conformance.differential.Vocabulary.SCORE;
import static dev.redsim.conformance.differential.Vocabulary.SCORE_BOUND;
import static dev.redsim.conformance.differential.Vocabulary.SMALL_INT;
import static dev.redsim.conformance.differential.Vocabulary.VALUE;
import static dev.redsim.conformance.differential.Vocabulary.call;
import static dev.redsim.conformance.differential.Vocabulary.options;
import static dev.redsim.conformance.differential.Vocabulary.variadic;
import static dev.redsim.conformance.differential.Vocabulary.withOptions;

/**
 * The command families histories are generated from. Each family's calls are deterministic on Redis (random
 * commands appear only in read-only forms, compared by shape), and nothing expires by real time during a
 * history (TTLs are long, or in the past so the key goes at once).
 */
public enum Family {
    STRINGS {
        @Override
        List<Gen<String[]>> calls() {
            return List.of(
                    call("GET", KEY), call("SET", KEY, VALUE),
                    withOptions(call("SET", KEY, VALUE), options("NX", "XX", "GET", "KEEPTTL", "EX 100")),
                    call("SETNX", KEY, VALUE), call("GETSET", KEY, VALUE), call("GETDEL", KEY),
                    variadic("MGET", List.of(), 3, KEY), variadic("MSET", List.of(), 2, KEY, VALUE),
                    variadic("MSETNX", List.of(), 2, KEY, VALUE),
                    call("APPEND", KEY, VALUE), call("STRLEN", KEY), call("INCR", KEY), call("DECR", KEY),
                    call("INCRBY", KEY, SMALL_INT), call("DECRBY", KEY, SMALL_INT), call("INCRBYFLOAT", KEY, SCORE),
                    call("GETRANGE", KEY, SMALL_INT, SMALL_INT), call("SUBSTR", KEY, SMALL_INT, SMALL_INT),
                    call("SETRANGE", KEY, Gen.elements("0", "1", "3", "-1", "x"), VALUE),
                    call("SETBIT", KEY, Gen.elements("0", "1", "7", "8", "15", "-1"), Gen.elements("0", "1", "2")),
                    call("GETBIT", KEY, Gen.elements("0", "1", "7", "100")),
                    call("BITCOUNT", KEY), call("BITCOUNT", KEY, SMALL_INT, SMALL_INT),
                    call("BITPOS", KEY, Gen.elements("0", "1")),
                    call("BITOP", Gen.elements("AND", "OR", "XOR", "NOT", "FOO"), KEY, KEY),
                    call("LCS", KEY, KEY), call("GETEX", KEY), call("GETEX", KEY, Gen.elements("PERSIST", "EX")),
                    call("TYPE", KEY), call("DEL", KEY), call("EXISTS", KEY));
        }
    },
    LISTS {
        @Override
        List<Gen<String[]>> calls() {
            Gen<String> end = Gen.elements("LEFT", "RIGHT");
            return List.of(
                    variadic("LPUSH", List.of(KEY), 3, MEMBER), variadic("RPUSH", List.of(KEY), 3, MEMBER),
                    call("LPUSHX", KEY, MEMBER), call("RPUSHX", KEY, MEMBER),
                    call("LPOP", KEY), call("RPOP", KEY), call("LPOP", KEY, SMALL_INT), call("RPOP", KEY, SMALL_INT),
                    call("LLEN", KEY), call("LRANGE", KEY, SMALL_INT, SMALL_INT), call("LRANGE", KEY, Gen.constant("0"),
                            Gen.constant("-1")),
                    call("LINDEX", KEY, SMALL_INT), call("LSET", KEY, SMALL_INT, MEMBER),
                    call("LINSERT", KEY, Gen.elements("BEFORE", "AFTER", "MIDDLE"), MEMBER, MEMBER),
                    call("LREM", KEY, SMALL_INT, MEMBER), call("LTRIM", KEY, SMALL_INT, SMALL_INT),
                    withOptions(call("LPOS", KEY, MEMBER), options("RANK -1", "COUNT 0", "MAXLEN 2")),
                    call("LMOVE", KEY, KEY, end, end), call("RPOPLPUSH", KEY, KEY),
                    call("LMPOP", Gen.constant("2"), KEY, KEY, end),
                    call("TYPE", KEY), call("DEL", KEY));
        }
    },
    HASHES {
        @Override
        List<Gen<String[]>> calls() {
            Gen<String> field = Gen.elements("f1", "f2", "f3", "n", "");
            return List.of(
                    variadic("HSET", List.of(KEY), 3, field, VALUE), call("HSETNX", KEY, field, VALUE),
                    call("HGET", KEY, field), variadic("HMSET", List.of(KEY), 2, field, VALUE),
                    variadic("HMGET", List.of(KEY), 3, field), variadic("HDEL", List.of(KEY), 2, field),
                    call("HEXISTS", KEY, field), call("HLEN", KEY), call("HKEYS", KEY), call("HVALS", KEY),
                    call("HGETALL", KEY), call("HINCRBY", KEY, field, SMALL_INT),
                    call("HINCRBYFLOAT", KEY, field, SCORE), call("HSTRLEN", KEY, field),
                    call("HRANDFIELD", KEY), call("HRANDFIELD", KEY, SMALL_INT),
                    call("HSCAN", KEY, Gen.constant("0")), call("TYPE", KEY), call("DEL", KEY));
        }
    },
    SETS {
        @Override
        List<Gen<String[]>> calls() {
            return List.of(
                    variadic("SADD", List.of(KEY), 3, MEMBER), variadic("SREM", List.of(KEY), 2, MEMBER),
                    call("SMEMBERS", KEY), call("SISMEMBER", KEY, MEMBER), variadic("SMISMEMBER", List.of(KEY), 2, MEMBER),
                    call("SCARD", KEY), call("SPOP", KEY, Gen.constant("100")), call("SRANDMEMBER", KEY),
                    call("SRANDMEMBER", KEY, SMALL_INT), call("SMOVE", KEY, KEY, MEMBER),
                    variadic("SINTER", List.of(), 3, KEY), variadic("SUNION", List.of(), 3, KEY),
                    variadic("SDIFF", List.of(), 3, KEY), variadic("SINTERSTORE", List.of(KEY), 2, KEY),
                    variadic("SUNIONSTORE", List.of(KEY), 2, KEY), variadic("SDIFFSTORE", List.of(KEY), 2, KEY),
                    call("SINTERCARD", Gen.constant("2"), KEY, KEY), call("SSCAN", KEY, Gen.constant("0")),
                    call("TYPE", KEY), call("DEL", KEY));
        }
    },
    SORTED_SETS {
        @Override
        List<Gen<String[]>> calls() {
            return List.of(
                    variadic("ZADD", List.of(KEY), 3, SCORE, MEMBER),
                    withOptions(call("ZADD", KEY), random -> {
                        List<String> opts = new ArrayList<>(options("NX", "XX", "GT", "LT", "CH", "INCR").next(random));
                        opts.add(SCORE.next(random));
                        opts.add(MEMBER.next(random));
                        return opts;
                    }),
                    call("ZINCRBY", KEY, SCORE, MEMBER), variadic("ZREM", List.of(KEY), 2, MEMBER), call("ZCARD", KEY),
                    call("ZSCORE", KEY, MEMBER), variadic("ZMSCORE", List.of(KEY), 2, MEMBER),
                    call("ZRANK", KEY, MEMBER), call("ZREVRANK", KEY, MEMBER),
                    withOptions(call("ZRANGE", KEY, SMALL_INT, SMALL_INT), options("REV", "WITHSCORES")),
                    withOptions(call("ZRANGE", KEY, SCORE_BOUND, SCORE_BOUND, Gen.constant("BYSCORE")),
                            options("REV", "LIMIT 0 2", "WITHSCORES")),
                    withOptions(call("ZRANGE", KEY, LEX_BOUND, LEX_BOUND, Gen.constant("BYLEX")), options("REV", "LIMIT 1 1")),
                    call("ZRANGEBYSCORE", KEY, SCORE_BOUND, SCORE_BOUND), call("ZREVRANGEBYSCORE", KEY, SCORE_BOUND, SCORE_BOUND),
                    call("ZRANGEBYLEX", KEY, LEX_BOUND, LEX_BOUND), call("ZCOUNT", KEY, SCORE_BOUND, SCORE_BOUND),
                    call("ZLEXCOUNT", KEY, LEX_BOUND, LEX_BOUND), call("ZPOPMIN", KEY), call("ZPOPMAX", KEY, SMALL_INT),
                    call("ZMPOP", Gen.constant("2"), KEY, KEY, Gen.elements("MIN", "MAX")),
                    call("ZREMRANGEBYRANK", KEY, SMALL_INT, SMALL_INT), call("ZREMRANGEBYSCORE", KEY, SCORE_BOUND, SCORE_BOUND),
                    call("ZREMRANGEBYLEX", KEY, LEX_BOUND, LEX_BOUND),
                    withOptions(call("ZUNIONSTORE", KEY, Gen.constant("2"), KEY, KEY), options("WEIGHTS 2 3", "AGGREGATE MAX")),
                    withOptions(call("ZINTERSTORE", KEY, Gen.constant("2"), KEY, KEY), options("AGGREGATE MIN")),
                    call("ZDIFFSTORE", KEY, Gen.constant("2"), KEY, KEY),
                    withOptions(call("ZUNION", Gen.constant("2"), KEY, KEY), options("WITHSCORES")),
                    withOptions(call("ZINTER", Gen.constant("2"), KEY, KEY), options("WITHSCORES")),
                    call("ZDIFF", Gen.constant("2"), KEY, KEY), call("ZINTERCARD", Gen.constant("2"), KEY, KEY),
                    call("ZRANGESTORE", KEY, KEY, SMALL_INT, SMALL_INT), call("ZRANDMEMBER", KEY),
                    call("ZSCAN", KEY, Gen.constant("0")), call("TYPE", KEY), call("DEL", KEY));
        }
    },
    KEYS {
        @Override
        List<Gen<String[]>> calls() {
            return List.of(
                    call("SET", KEY, VALUE), variadic("RPUSH", List.of(KEY), 2, MEMBER), variadic("SADD", List.of(KEY), 2, MEMBER),
                    variadic("DEL", List.of(), 3, KEY), variadic("UNLINK", List.of(), 2, KEY),
                    variadic("EXISTS", List.of(), 3, KEY), call("TYPE", KEY), call("KEYS", Gen.elements("*", "k*", "k?", "*4*")),
                    call("RENAME", KEY, KEY), call("RENAMENX", KEY, KEY), call("COPY", KEY, KEY),
                    withOptions(call("COPY", KEY, KEY), options("DB 1", "REPLACE")), call("MOVE", KEY, Gen.elements("0", "1")),
                    variadic("TOUCH", List.of(), 2, KEY), call("OBJECT", Gen.constant("ENCODING"), KEY),
                    call("DBSIZE"), call("RANDOMKEY"), call("SCAN", Gen.constant("0"), Gen.constant("COUNT"), Gen.constant("100")),
                    call("SELECT", Gen.elements("0", "1")));
        }
    },
    EXPIRY {
        @Override
        List<Gen<String[]>> calls() {
            // Relative times stay far longer than a history lasts (nothing may expire by real time during one,
            // or the two servers would diverge by timing); zero and negative ones delete at once.
            Gen<String> seconds = Gen.elements("100", "1000", "0", "-1", "x", "9223372036854775807");
            Gen<String> millis = Gen.elements("100000", "1000000", "0", "-1", "x", "9223372036854775807");
            Gen<String> when = Gen.elements("1", "4000000000", "4000000001");
            // GT and LT only with absolute times: comparing two relative times set a millisecond apart would
            // depend on whether the clock ticked in between, on either server.
            return List.of(
                    call("SET", KEY, VALUE), withOptions(call("SET", KEY, VALUE), options("EX 100", "KEEPTTL")),
                    withOptions(call("EXPIRE", KEY, seconds), options("NX", "XX")),
                    withOptions(call("PEXPIRE", KEY, millis), options("NX", "XX")),
                    withOptions(call("EXPIREAT", KEY, when), options("NX", "XX", "GT", "LT")),
                    withOptions(call("PEXPIREAT", KEY, when), options("GT", "LT")),
                    call("EXPIREAT", KEY, when), call("PEXPIREAT", KEY, when),
                    call("TTL", KEY), call("PTTL", KEY), call("EXPIRETIME", KEY), call("PEXPIRETIME", KEY),
                    call("PERSIST", KEY), call("GETEX", KEY, Gen.constant("EX"), Gen.elements("100", "0")),
                    call("GETEX", KEY, Gen.constant("PERSIST")), call("EXISTS", KEY), call("DEL", KEY));
        }
    },
    /** BITFIELD and BITFIELD_RO: random runs of GET / SET / INCRBY / OVERFLOW over the bit commands' strings. */
    BITFIELD {
        @Override
        List<Gen<String[]>> calls() {
            return List.of(
                    BitFieldCalls.bitfield("BITFIELD"), BitFieldCalls.bitfield("BITFIELD"), BitFieldCalls.bitfield("BITFIELD_RO"),
                    call("SET", KEY, VALUE), call("GET", KEY), call("SETBIT", KEY, Gen.elements("0", "7", "13", "64"),
                            Gen.elements("0", "1")),
                    call("APPEND", KEY, VALUE), call("STRLEN", KEY), call("BITCOUNT", KEY),
                    call("OBJECT", Gen.constant("ENCODING"), KEY), variadic("RPUSH", List.of(KEY), 1, MEMBER),
                    call("TYPE", KEY), call("DEL", KEY));
        }
    },
    /** HyperLogLog: PFADD / PFCOUNT / PFMERGE / PFDEBUG and the raw bytes under the keys; see {@link HllCalls}. */
    HLL {
        @Override
        List<Gen<String[]>> calls() {
            return HllCalls.calls();
        }
    },
    /** Geo: GEOADD / GEOSEARCH(STORE) / GEORADIUS* / GEODIST / GEOPOS / GEOHASH; see {@link GeoCalls}. */
    GEO {
        @Override
        List<Gen<String[]>> calls() {
            return GeoCalls.calls();
        }
    },
    /** Streams and consumer groups with explicit IDs; see {@link StreamCalls}. */
    STREAMS {
        @Override
        List<Gen<String[]>> calls() {
            return StreamCalls.calls();
        }
    },
    /** SORT / SORT_RO over lists, intsets and sorted sets, BY and GET reading the shared keys; see {@link SortCalls}. */
    SORT {
        @Override
        List<Gen<String[]>> calls() {
            return SortCalls.calls();
        }
    },
    /**
     * MULTI/EXEC/DISCARD/WATCH/UNWATCH interleaved over several clients with writes to the watched keys, queue-time
     * errors (EXECABORT) and run-time errors (WRONGTYPE inside EXEC).
     */
    TRANSACTIONS {
        @Override
        List<Gen<String[]>> calls() {
            return List.of(
                    call("MULTI"), call("MULTI"), call("EXEC"), call("EXEC"), call("DISCARD"),
                    variadic("WATCH", List.of(), 2, KEY), call("UNWATCH"),
                    call("SET", KEY, VALUE), call("GET", KEY), call("INCR", KEY), call("DEL", KEY),
                    variadic("RPUSH", List.of(KEY), 2, MEMBER), call("LRANGE", KEY, Gen.constant("0"), Gen.constant("-1")),
                    call("EXISTS", KEY), call("GET"), call("NOSUCHCOMMAND", KEY), call("FLUSHDB"),
                    call("SWAPDB", Gen.constant("0"), Gen.constant("1")), call("SELECT", Gen.elements("0", "1")));
        }
    },
    /**
     * Lua: scripts reading and writing the shared keys (errors passing through Lua both ways, conversions, the
     * bundled libraries), the script cache and a function library; see {@link Scripts}.
     */
    SCRIPTING {
        @Override
        List<Gen<String[]>> calls() {
            return Scripts.calls();
        }
    },
    /**
     * Everything at once, on shared keys, so that types clash and WRONGTYPE answers are compared too. SORT stays
     * out: its calls count on sets being intsets (a set of strings is read in Redis's randomly seeded order).
     */
    MIXED {
        @Override
        List<Gen<String[]>> calls() {
            List<Gen<String[]>> all = new ArrayList<>();
            for (Family f : values()) {
                if (f != MIXED && f != TRANSACTIONS && f != SORT) {
                    all.addAll(f.calls());
                }
            }
            return all;
        }
    };

    abstract List<Gen<String[]>> calls();

    /** The commands this family's histories use (upper case; a container's with its subcommand: "XGROUP CREATE"). */
    public java.util.Set<String> commandNames() {
        java.util.Set<String> names = new java.util.TreeSet<>();
        for (Gen<String[]> gen : calls()) {
            String[] call = gen.next(new java.util.SplittableRandom(0));
            var command = dev.redsim.simulator.command.CommandCatalog.redis70().describe(call[0].toLowerCase());
            boolean container = command != null && !command.subcommands().isEmpty() && call.length > 1;
            names.add(container ? (call[0] + " " + call[1]).toUpperCase() : call[0].toUpperCase());
        }
        return names;
    }

    /** Histories of {@code minLength..maxLength} calls, spread over {@code clients} connections. */
    public Gen<List<Call>> histories(int clients, int minLength, int maxLength) {
        List<Gen<String[]>> calls = calls();
        Gen<Call> oneCall = random -> Call.of(random.nextInt(clients), calls.get(random.nextInt(calls.size())).next(random));
        return Gen.listOf(oneCall, minLength, maxLength);
    }
}
