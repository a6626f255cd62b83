package dev.redsim.simulator.scripting;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.compiler.LuaC;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Which scripts are proven to end soon (and run on the engine thread), and which are not. */
class ShortScriptsTest {
    @BeforeAll
    static void compilerAsScriptsSeeIt() {
        GlobalsName.install();
    }

    /** Compiled as scripts are: luaj's compiler, then the concatenations moved out of line (ConcatNumbers). */
    private static boolean provablyShort(String source) throws IOException {
        Prototype p = ConcatNumbers.rewrite(LuaC.instance.compile(
                new ByteArrayInputStream(source.getBytes(StandardCharsets.UTF_8)), "@user_script"));
        return ShortScripts.provablyShort(p);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "return redis.call('GET', KEYS[1])",
            "return redis.call('SET', KEYS[1], ARGV[1])",
            "local v = redis.call('GET', KEYS[1]) if v then return tonumber(v) + 1 else return redis.call('SET', KEYS[1], ARGV[1]) end",
            "local n = redis.call('INCR', KEYS[1]) or 0 return {n, redis.pcall('GET', 'k'), #ARGV}",
            "return cjson.encode({a = ARGV[1], b = cjson.decode('[1,2]')})",
            "return ARGV[1]:upper() .. string.lower('X') .. string.format('%d', math.floor(2.5))",
            "local t = {} t[1] = t return t",
            "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('exists') end return redis.status_reply('ok')",
            "redis.setresp(3) return {map = {a = 1}}",
            "local x = ARGV[1] and ARGV[2] or 'default' return x",
            "local a, b = unpack(ARGV) return select('#', a, b)",
            "local s = 'x' s = s .. s s = s .. s return #s",
            "return bit.band(tonumber(ARGV[1]), 255)",
            "return table.concat({KEYS[1], ARGV[1]}, ':')",
            "return redis.sha1hex(ARGV[1])",
            "local d = cjson.decode(ARGV[1]) return redis.call('SET', KEYS[1], d.name)",
            "return math.pi",
            "return KEYS[1] .. ':' .. ARGV[1] .. 1.5",
            "local a = ARGV[1] .. 'x' local b = a .. a .. a return b .. KEYS[1]"})
    void boundedScriptsAreProven(String source) throws IOException {
        assertThat(provablyShort(source)).as(source).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "while true do end",
            "local i = 0 repeat i = i + 1 until i > 10 return i",
            "for i = 1, 10 do redis.call('INCR', KEYS[1]) end",
            "for k, v in pairs(KEYS) do end",
            "local function f() return 1 end return f()",
            "return (function() return 1 end)()",
            "return string.rep('x', 1e9)",
            "return ('x'):rep(1e9)",
            "local f = ('x').rep return f('x', 1e9)",
            "local s = string return s.rep('x', 9)",
            "return tostring(string)",
            "return string[ARGV[1]]('x', 1e9)",
            "local t = {string.rep} return 1",
            "local f = tostring if ARGV[1] then f = ('x').rep end return f('a', 1e9)",
            "return loadstring('while true do end')()",
            "return pcall(redis.call, 'GET', 'k')",
            "return setmetatable({}, {__index = function() end})",
            "return string.find(ARGV[1], '(.-)(.-)(.-)x')",
            "return string.gsub(ARGV[1], 'a', 'b')",
            "return table.sort(KEYS)",
            "return _G",
            "return getfenv(1)",
            "return cmsgpack.unpack(ARGV[1])",
            "return struct.pack('i', 1)",
            "return coroutine.create(tostring)",
            "return redis.call(ARGV[1]:rep(2))",
            "local k = 1 return redis.call('GET', KEYS[k]:rep(9))",
            "local k = ARGV[1] return redis.call('GET', KEYS[k])",
            "return ARGV[1]:gsub('a', 'b')",
            "return next(KEYS)",
            "return ipairs(KEYS)",
            "local s = KEYS[1] .. ('x').rep return s"})
    void unboundedOrUnprovenScriptsAreNot(String source) throws IOException {
        assertThat(provablyShort(source)).as(source).isFalse();
    }

    @org.junit.jupiter.api.Test
    void aScriptLongerThanRedisBusyHookIntervalIsNot() throws IOException {
        StringBuilder source = new StringBuilder("local n = 0 ");
        for (int i = 0; i < ShortScripts.MAX_INSTRUCTIONS; i++) { // one ADD each
            source.append("n = n + 1 ");
        }
        source.append("return n");
        assertThat(provablyShort(source.toString())).isFalse();
        assertThat(provablyShort("local n = 0 n = n + 1 return n")).isTrue();
    }
}
