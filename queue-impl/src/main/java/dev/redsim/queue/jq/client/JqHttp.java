package dev.redsim.queue.jq.client;

import dev.redsim.queue.jq.Msgpack;
import org.msgpack.value.Value;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** MessagePack over java.net.http, shared by the pusher and the worker clients. */
final class JqHttp {
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI master;

    JqHttp(URI master) {
        this.master = master;
    }

    record Reply(int status, byte[] body) {
        Value value() {
            return Msgpack.decode(body);
        }
    }

    Reply send(String method, String path, Value body, Duration timeout) {
        HttpRequest.Builder b = HttpRequest.newBuilder(master.resolve(path)).timeout(timeout)
                .header("Content-Type", "application/msgpack").header("Accept", "application/msgpack");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(Msgpack.encode(body)));
        try {
            HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(r.statusCode(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    Reply expect(Reply reply, int... statuses) {
        for (int s : statuses) {
            if (reply.status() == s) {
                return reply;
            }
        }
        String detail = reply.body().length == 0 ? "" : ": " + reply.value().toJson();
        throw new JqClientException("JQ master answered HTTP " + reply.status() + detail);
    }
}
