package dev.redsim.queue.jq.client;

import dev.redsim.queue.jq.Msgpack;
import org.msgpack.value.Value;

import dev.redsim.queue.jq.http.HttpResponse;
import dev.redsim.queue.jq.http.KeepAliveClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;

/**
 * MessagePack over kept-alive HTTP/1.1 connections ({@link KeepAliveClient}: see there why not java.net.http),
 * shared by the pusher and the worker clients.
 */
final class JqHttp implements AutoCloseable {
    private final KeepAliveClient client;
    private final URI master;

    /** @param token the master's API token, or null when it has none */
    JqHttp(URI master, String token) {
        this.master = master;
        this.client = new KeepAliveClient(token == null ? null : "Bearer " + token);
    }

    record Reply(int status, byte[] body) {
        Value value() {
            return Msgpack.decode(body);
        }
    }

    Reply send(String method, String path, Value body, Duration timeout) {
        try {
            KeepAliveClient.Response r = client.send(master.resolve(path), method, HttpResponse.MSGPACK,
                    body == null ? null : Msgpack.encode(body), timeout);
            return new Reply(r.status(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        client.close();
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
