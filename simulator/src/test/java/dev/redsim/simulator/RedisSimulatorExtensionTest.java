package dev.redsim.simulator;

import dev.redsim.simulator.intercept.CallOutcome;
import dev.redsim.simulator.junit.RedisSimulatorExtension;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(RedisSimulatorExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisSimulatorExtensionTest {
    private static int firstPort;

    @Test
    @Order(1)
    void injectsARunningSimulator(RedisSimulator redis) throws IOException {
        firstPort = redis.port();
        try (TinyClient client = new TinyClient(redis)) {
            assertThat(client.call("PING")).isEqualTo("+PONG");
            assertThat(client.call("SET leftover 1")).isEqualTo("+OK");
        }
    }

    @Test
    @Order(2)
    void sameSimulatorForTheClassButEmptiedBeforeEachTest(RedisSimulator redis) throws IOException {
        assertThat(redis.port()).isEqualTo(firstPort);
        try (TinyClient client = new TinyClient(redis)) {
            assertThat(client.call("DBSIZE")).isEqualTo(":0");
        }
    }

    @Test
    @Order(3)
    void aTestInstallsAnInterceptorAndLeavesIt(RedisSimulator redis) throws IOException {
        redis.intercept(call -> CallOutcome.error("ERR injected"));
        try (TinyClient client = new TinyClient(redis)) {
            assertThat(client.call("PING")).isEqualTo("-ERR injected");
        }
    }

    @Test
    @Order(4)
    void theNextTestDoesNotInheritIt(RedisSimulator redis) throws IOException {
        try (TinyClient client = new TinyClient(redis)) {
            assertThat(client.call("PING")).isEqualTo("+PONG");
        }
    }
}
