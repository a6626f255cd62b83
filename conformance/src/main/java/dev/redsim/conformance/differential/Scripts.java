package dev.redsim.conformance.differential;

import dev.redsim.conformance.property.Gen;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static dev.redsim.conformance.differential.Vocabulary.KEY;
import static dev.redsim.conformance.differential.Vocabulary.MEMBER;
import static dev.redsim.conformance.differential.Vocabulary.VALUE;
import static dev.redsim.conformance.differential.Vocabulary.call;
import static dev.redsim.conformance.differential.Vocabulary.variadic;

/**
 * The calls of the SCRIPTING family: scripts that read and write the shared keys through redis.call and
 * redis.pcall (so type clashes and command errors pass through Lua both ways), the value conversions, the bundled
 * libraries on stored values, the script cache (SCRIPT LOAD / EXISTS / FLUSH, EVALSHA), read-only variants, and a
 * function library loaded, replaced, called and deleted. Scripts avoid what Lua leaves unordered (pairs over
 * string keys, encoding maps), so every reply is deterministic on both servers.
 */
final class Scripts {
    /** Every script takes two keys and two arguments. */
    static final List<String> BODIES = List.of(
            "return redis.call('SET', KEYS[1], ARGV[1])",
            "return redis.call('GET', KEYS[1])",
            "return redis.pcall('INCRBY', KEYS[1], ARGV[1])",
            "return redis.call('INCRBY', KEYS[1], ARGV[1])",
            "local v = redis.call('GET', KEYS[1]) if v then redis.call('SET', KEYS[2], v) end return v",
            "return redis.call('RPUSH', KEYS[1], ARGV[1], ARGV[2])",
            "return redis.call('LRANGE', KEYS[1], 0, -1)",
            "return cjson.encode(redis.call('LRANGE', KEYS[1], 0, -1))",
            "return cjson.decode(cjson.encode({ARGV[1], tonumber(ARGV[2]) or ARGV[2], true}))",
            "local ok, t = pcall(cjson.decode, ARGV[1]) if ok then return type(t) end return t",
            "return cmsgpack.unpack(cmsgpack.pack(redis.call('LRANGE', KEYS[1], 0, -1)))",
            "return #cmsgpack.pack(ARGV[1], tonumber(ARGV[2]) or 0)",
            "return {struct.unpack('>i4', struct.pack('>i4', tonumber(ARGV[1]) or 7))}",
            "return struct.pack('<Hc0', 5, ARGV[1])",
            "return bit.tohex(bit.bxor(tonumber(ARGV[1]) or 1, 255))",
            "return redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])",
            "return redis.call('HGETALL', KEYS[1])",
            "return {redis.call('TYPE', KEYS[1]), redis.call('EXISTS', KEYS[1], KEYS[2])}",
            "return redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])",
            "return redis.pcall('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')",
            "return redis.status_reply(ARGV[1])",
            "return redis.error_reply(ARGV[1])",
            "return {1, 2.9, -3.5, 'x', false, true, {ARGV[1], {ARGV[2]}}}",
            "return redis.call('EXPIRE', KEYS[1], 100)",
            "return redis.call('DEL', KEYS[1], KEYS[2])",
            "local n = 0 for _, k in ipairs(KEYS) do n = n + redis.call('EXISTS', k) end return n",
            "return redis.sha1hex(ARGV[1])",
            "return tonumber(ARGV[1])",
            // the generator's sequence runs on across scripts (and histories): only its range is compared
            "local r = math.random(1000) return r >= 1 and r <= 1000 and r == math.floor(r)",
            "local r = redis.pcall('LPUSH', KEYS[1], ARGV[1]) if type(r) == 'table' then return r.err end return r",
            "return redis.call('LPOP', KEYS[1])",
            "return redis.call('BLPOP', KEYS[1], 0)",
            "return redis.call('SADD', KEYS[1], ARGV[1]) + redis.call('SCARD', KEYS[1])",
            "return redis.call('GETRANGE', KEYS[1], 0, tonumber(ARGV[2]) or 1)",
            "return redis.call('NOSUCHCOMMAND', KEYS[1])",
            "return redis.call('GET', KEYS[1], KEYS[2])",
            "error('failed on ' .. ARGV[1])",
            "return undefined_global",
            "local t = {} t[ARGV[1]] = 1 return t[ARGV[1]]",
            "return string.format('%s=%d', ARGV[1], #ARGV[2])",
            "return redis.call('SET', KEYS[1], ARGV[1], 'GET')",
            "return redis.call('APPEND', KEYS[1], ARGV[1])");

    private static final String LIBRARY = "#!lua name=difflib\n"
            + "redis.register_function('dset', function(keys, args) return redis.call('SET', keys[1], args[1]) end)\n"
            + "redis.register_function{function_name='dget', callback=function(keys) return redis.call('GET', keys[1]) end,"
            + " flags={'no-writes'}}\n"
            + "redis.register_function('dpush', function(keys, args) return redis.call('RPUSH', keys[1], args[1]) end)";
    private static final String LIBRARY_V2 = "#!lua name=difflib\n"
            + "redis.register_function('dset', function(keys, args) return redis.call('SET', keys[1], args[1] .. '!') end)\n"
            + "redis.register_function{function_name='dget', callback=function(keys) return redis.call('TYPE', keys[1]) end,"
            + " flags={'no-writes'}}";

    private static final Gen<String> BODY = Gen.elements(BODIES);
    private static final Gen<String> SHA = random -> sha1(BODIES.get(random.nextInt(BODIES.size())));
    /** Arguments for scripts: the shared values plus JSON texts and members. */
    private static final Gen<String> ARG = Gen.oneOf(VALUE, MEMBER,
            Gen.elements("[1,2,3]", "{\"a\":1}", "\"s\"", "[", "null", "1e400"));

    private Scripts() {
    }

    static List<Gen<String[]>> calls() {
        List<Gen<String[]>> calls = new ArrayList<>();
        for (String eval : List.of("EVAL", "EVAL", "EVAL", "EVAL_RO")) {
            calls.add(call(eval, BODY, Gen.constant("2"), KEY, KEY, ARG, ARG));
        }
        calls.add(call("EVAL", BODY, Gen.elements("0", "1", "3", "-1", "x"), KEY, ARG));
        calls.add(call("EVALSHA", SHA, Gen.constant("2"), KEY, KEY, ARG, ARG));
        calls.add(call("EVALSHA_RO", SHA, Gen.constant("2"), KEY, KEY, ARG, ARG));
        calls.add(call("SCRIPT", Gen.constant("LOAD"), BODY));
        calls.add(variadic("SCRIPT", List.of(Gen.constant("EXISTS")), 3, SHA));
        calls.add(call("SCRIPT", Gen.constant("FLUSH")));
        calls.add(call("FUNCTION", Gen.constant("LOAD"), Gen.elements(LIBRARY, LIBRARY_V2)));
        calls.add(call("FUNCTION", Gen.constant("LOAD"), Gen.constant("REPLACE"), Gen.elements(LIBRARY, LIBRARY_V2)));
        calls.add(call("FUNCTION", Gen.constant("DELETE"), Gen.elements("difflib", "nolib")));
        calls.add(call("FUNCTION", Gen.constant("LIST")));
        calls.add(call("FCALL", Gen.elements("dset", "dget", "dpush", "nofunc"), Gen.constant("1"), KEY, ARG));
        calls.add(call("FCALL_RO", Gen.elements("dset", "dget"), Gen.constant("1"), KEY, ARG));
        calls.add(call("SET", KEY, VALUE));
        calls.add(call("GET", KEY));
        calls.add(variadic("RPUSH", List.of(KEY), 2, MEMBER));
        calls.add(call("HSET", KEY, MEMBER, VALUE));
        calls.add(call("TYPE", KEY));
        return calls;
    }

    static String sha1(String body) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(body.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-1", e);
        }
    }
}
