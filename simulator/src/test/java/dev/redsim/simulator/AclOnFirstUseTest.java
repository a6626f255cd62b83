package dev.redsim.simulator;

import dev.redsim.simulator.acl.AclOnFirstUse;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The ACL is made on first use (decision 0035): the default user's commands run without it; an ACL command, an AUTH
 * or an aclfile makes it. What connections see then is compared with redis-server in the conformance AclTest.
 */
class AclOnFirstUseTest {
    private static boolean aclMade(RedisSimulator simulator) {
        return simulator.onEngine(() -> ((AclOnFirstUse) simulator.accessControl()).made());
    }

    @Test
    void theDefaultUsersCommandsRunWithoutTheAcl() throws IOException {
        try (RedisSimulator simulator = RedisSimulator.start(); TinyClient client = new TinyClient(simulator)) {
            assertThat(client.call("SET k v")).isEqualTo("+OK");
            assertThat(client.call("MULTI")).isEqualTo("+OK");
            assertThat(client.call("GET k")).isEqualTo("+QUEUED");
            assertThat(client.call("EXEC")).isEqualTo("*1");
            assertThat(client.readLine()).isEqualTo("v");
            assertThat(client.call("EVAL \"return redis.call('get','k')\" 0")).isEqualTo("v");
            assertThat(client.call("CLIENT LIST")).contains("user=default");
            assertThat(client.readLine()).isEmpty(); // the line's own newline, inside the bulk
            assertThat(aclMade(simulator)).isFalse();
            assertThat(client.call("ACL WHOAMI")).isEqualTo("default");
            assertThat(aclMade(simulator)).isTrue();
        }
    }

    @Test
    void authMakesTheAcl() throws IOException {
        try (RedisSimulator simulator = RedisSimulator.builder().password("pw").start();
             TinyClient client = new TinyClient(simulator)) {
            assertThat(client.call("GET k")).startsWith("-NOAUTH");
            assertThat(aclMade(simulator)).isFalse();
            assertThat(client.call("AUTH pw")).isEqualTo("+OK");
            assertThat(aclMade(simulator)).isTrue();
            assertThat(client.call("GET k")).isEqualTo("$-1");
        }
    }

    @Test
    void anAclFileIsReadAtStartAndItsErrorsStopTheStart(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path good = dir.resolve("good.acl");
        Files.writeString(good, "user default on nopass ~* &* +@all\nuser alice on >pw ~a* +get\n");
        try (RedisSimulator simulator = RedisSimulator.builder().config("aclfile", good.toString()).start();
             TinyClient client = new TinyClient(simulator)) {
            assertThat(aclMade(simulator)).isTrue();
            assertThat(client.call("AUTH alice pw")).isEqualTo("+OK");
            assertThat(client.call("SET a 1")).startsWith("-NOPERM");
        }
        Path bad = dir.resolve("bad.acl");
        Files.writeString(bad, "user alice on +nosuchcommand\n");
        assertThatThrownBy(() -> RedisSimulator.builder().config("aclfile", bad.toString()).start())
                .hasMessageContaining("ACL");
    }
}
