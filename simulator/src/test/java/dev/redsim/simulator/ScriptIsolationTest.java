package dev.redsim.simulator;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two simulators in one JVM share luaj's static state (the string metatable above all): nothing a script does in
 * one may be seen in the other, whichever was started first and whichever built its Lua state last.
 */
class ScriptIsolationTest {
    private static final String[] ATTACKS = {
        "EVAL \"rawset(getmetatable(''), '__index', {upper = function() return 'pwned' end}) return 1\" 0",
        "EVAL \"getmetatable('').__index.upper = function() return 'pwned' end return 1\" 0",
        "EVAL \"rawset(redis, 'call', function() return 'pwned' end) return 1\" 0",
        "EVAL \"getmetatable(_G).__index = nil return 1\" 0",
        "EVAL \"setmetatable(_G, nil) return 1\" 0",
    };

    @Test
    void attacksInOneSimulatorChangeNothingInEitherSimulator() throws IOException {
        try (RedisSimulator first = RedisSimulator.start(); RedisSimulator second = RedisSimulator.start();
             TinyClient a = new TinyClient(first); TinyClient b = new TinyClient(second)) {
            assertThat(a.call("EVAL \"return ('x'):upper()\" 0")).isEqualTo("X"); // a's Lua state first
            assertThat(b.call("EVAL \"return ('y'):upper()\" 0")).isEqualTo("Y"); // then b's
            for (String attack : ATTACKS) {
                assertThat(a.call(attack)).startsWith("-ERR").contains("readonly table");
            }
            for (TinyClient client : new TinyClient[] {a, b}) {
                assertThat(client.call("EVAL \"return ('abc'):upper()\" 0")).isEqualTo("ABC");
                assertThat(client.call("EVAL \"return redis.call('PING')\" 0")).isEqualTo("+PONG");
                assertThat(client.call("EVAL \"return nope\" 0")).contains("nonexistent global variable 'nope'");
            }
        }
    }

    @Test
    void aStoppedSimulatorsLuaStateIsNotWhereStringMethodsLead() throws IOException {
        try (RedisSimulator survivor = RedisSimulator.start(); TinyClient client = new TinyClient(survivor)) {
            assertThat(client.call("EVAL \"return ('a'):rep(2)\" 0")).isEqualTo("aa");
            try (RedisSimulator later = RedisSimulator.start(); TinyClient other = new TinyClient(later)) {
                assertThat(other.call("EVAL \"return ('b'):rep(2)\" 0")).isEqualTo("bb");
            }
            // a wrong argument names the method from the survivor's own frames
            assertThat(client.call("EVAL \"return ('a'):rep()\" 0"))
                    .contains("bad argument #1 to 'rep' (number expected, got no value)");
        }
    }
}
