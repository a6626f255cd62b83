package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.server.ClientConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With the client's denyBlocking flag set (what EXEC sets while it runs the queued commands, as Redis's
 * CLIENT_DENY_BLOCKING), blocking commands never block: with nothing to take they answer as a timeout at once
 * (a null array; BLMOVE and BRPOPLPUSH a plain null), and with data they behave as usual. Simulator-only.
 */
class NonBlockingModeTest {
    private RedisSimulator simulator;
    private RespClient client;

    @BeforeEach
    void start() {
        simulator = RedisSimulator.start();
        client = new RespClient(simulator.host(), simulator.port());
        long id = client.call("CLIENT", "ID").asLong();
        simulator.onEngine(() -> {
            ClientConnection connection = simulator.engine().client(id);
            connection.denyBlocking(true);
            return null;
        });
    }

    @AfterEach
    void stop() {
        client.close();
        simulator.close();
    }

    private String call(String... args) {
        return client.call(args).toString();
    }

    @Test
    void emptyWaitsAnswerAtOnce() {
        assertThat(call("BLPOP", "q", "0")).isEqualTo("*-1\\r\\n");
        assertThat(call("BRPOP", "q", "r", "0")).isEqualTo("*-1\\r\\n");
        assertThat(call("BLMPOP", "0", "1", "q", "LEFT")).isEqualTo("*-1\\r\\n");
        assertThat(call("BLMOVE", "q", "d", "LEFT", "RIGHT", "0")).isEqualTo("$-1\\r\\n");
        assertThat(call("BRPOPLPUSH", "q", "d", "0")).isEqualTo("$-1\\r\\n");
        assertThat(call("BZPOPMIN", "z", "0")).isEqualTo("*-1\\r\\n");
        assertThat(call("BZPOPMAX", "z", "0")).isEqualTo("*-1\\r\\n");
        assertThat(call("BZMPOP", "0", "1", "z", "MIN")).isEqualTo("*-1\\r\\n");
        assertThat(client.call("INFO", "clients").text()).contains("blocked_clients:0\r\n");
    }

    @Test
    void errorsAndDataBehaveAsUsual() {
        assertThat(call("BLPOP", "q", "-1")).contains("timeout is negative");
        client.call("RPUSH", "q", "a");
        assertThat(client.call("BLPOP", "q", "0").children().get(1).text()).isEqualTo("a");
        client.call("SET", "s", "v");
        assertThat(call("BLPOP", "s", "0")).contains("WRONGTYPE");
    }
}
