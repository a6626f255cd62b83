package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * QUIT closes the connection once the replies before it are written. Redis goes on reading what the client sends
 * meanwhile (processInputBuffer runs none of it), so the socket is closed with nothing unread: the end of a big reply
 * still on its way is delivered, then the end of the stream. A socket closed with unread input is reset instead
 * (RFC 2525), which throws away what the kernel had not sent yet.
 */
class CloseAfterReplyTest {
    private static final int VALUE = 16 * 1024 * 1024;

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void aBigReplyBeforeQuitArrivesWholeThoughTheClientSentMoreAfterQuit(String name) {
        try (RedisTarget target = start(name); RespClient admin = client(target);
             RespClient quitter = client(target)) {
            byte[] value = new byte[VALUE];
            for (int i = 0; i < value.length; i++) {
                value[i] = (byte) ('a' + i % 26);
            }
            admin.call("SET".getBytes(StandardCharsets.US_ASCII), "big".getBytes(StandardCharsets.US_ASCII), value);
            // in one write: GET, QUIT, then 30 KB more than the server's first 16 KB read can hold
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.writeBytes("*2\r\n$3\r\nGET\r\n$3\r\nbig\r\n*1\r\n$4\r\nQUIT\r\n".getBytes(StandardCharsets.US_ASCII));
            request.writeBytes("PING\r\n".repeat(5000).getBytes(StandardCharsets.US_ASCII));
            quitter.sendRaw(request.toByteArray());

            RespValue reply = quitter.read();
            assertThat(reply.data().length).isEqualTo(VALUE);
            assertThat(Arrays.mismatch(reply.data(), value)).isEqualTo(-1);
            assertThat(quitter.read().text()).isEqualTo("OK");
            assertThat(quitter.closedByServer()).isTrue();
        }
    }

    private static RedisTarget start(String name) {
        return name.equals("simulator") ? new SimulatorTarget() : Targets.reference();
    }

    private static RespClient client(RedisTarget target) {
        return new RespClient(target.host(), target.port());
    }
}
