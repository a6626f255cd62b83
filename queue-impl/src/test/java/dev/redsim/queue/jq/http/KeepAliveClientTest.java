package dev.redsim.queue.jq.http;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The JQ clients' HTTP/1.1 client against our Netty server and against a scripted raw socket server. */
class KeepAliveClientTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @Test
    void reusesOneConnectionAcrossRequestsAndCarriesBodies() throws IOException {
        List<String> bodies = new CopyOnWriteArrayList<>();
        Router router = new Router().add("POST", "/echo", (r, p) -> {
            bodies.add(new String(r.body(), StandardCharsets.UTF_8) + "?" + r.query().get("q"));
            return HttpResponse.msgpack(200, r.body());
        }).add("GET", "/none", (r, p) -> HttpResponse.empty(204));
        try (HttpServer server = HttpServer.start("127.0.0.1", 0, router); KeepAliveClient client = new KeepAliveClient()) {
            URI base = URI.create("http://127.0.0.1:" + server.port());
            for (int i = 0; i < 3; i++) {
                KeepAliveClient.Response r = client.send(base.resolve("/echo?q=" + i), "POST", HttpResponse.MSGPACK,
                        ("b" + i).getBytes(StandardCharsets.UTF_8), TIMEOUT);
                assertThat(r.status()).isEqualTo(200);
                assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("b" + i);
            }
            KeepAliveClient.Response none = client.send(base.resolve("/none"), "GET", null, null, TIMEOUT);
            assertThat(none.status()).isEqualTo(204);
            assertThat(none.body()).isEmpty();
            assertThat(bodies).containsExactly("b0?0", "b1?1", "b2?2");
        }
    }

    /**
     * A scripted server: answers each connection's first request with {@code answer}, then closes that
     * connection; a kept-alive client must notice the close and open a new connection for the next request.
     */
    @Test
    void aConnectionTheServerClosedIsNotReusedAndChunkedAnswersAreRead() throws Exception {
        String chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n";
        try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
             KeepAliveClient client = new KeepAliveClient()) {
            List<CountDownLatch> closed = List.of(new CountDownLatch(1), new CountDownLatch(1));
            Thread t = new Thread(() -> {
                for (CountDownLatch done : closed) {
                    try (Socket s = server.accept()) {
                        readRequestHead(s);
                        OutputStream out = s.getOutputStream();
                        out.write(chunked.getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    done.countDown();
                }
            });
            t.setDaemon(true);
            t.start();
            URI uri = URI.create("http://127.0.0.1:" + server.getLocalPort() + "/x");
            for (CountDownLatch done : closed) {
                KeepAliveClient.Response r = client.send(uri, "GET", null, null, TIMEOUT);
                assertThat(new String(r.body(), StandardCharsets.US_ASCII)).isEqualTo("abcde");
                // The answer claimed keep-alive, but the server closed: the next request must not go on this socket.
                assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
            }
        }
    }

    @Test
    void noAnswerInTimeIsATimeoutAndARefusedConnectionIsNotSent() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
             KeepAliveClient client = new KeepAliveClient()) {
            URI uri = URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/slow");
            assertThatThrownBy(() -> client.send(uri, "GET", null, null, Duration.ofMillis(50)))
                    .isInstanceOf(SocketTimeoutException.class);
        }
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        try (KeepAliveClient client = new KeepAliveClient()) {
            URI uri = URI.create("http://127.0.0.1:" + closed + "/run");
            assertThatThrownBy(() -> client.send(uri, "POST", null, new byte[]{1}, TIMEOUT))
                    .isInstanceOf(KeepAliveClient.NotSentException.class);
        }
    }

    private static void readRequestHead(Socket s) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
        for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
            // the request head: nothing to check
        }
    }
}
