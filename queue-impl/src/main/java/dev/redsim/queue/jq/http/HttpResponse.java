package dev.redsim.queue.jq.http;

import java.nio.charset.StandardCharsets;

/** Status, content type (null when there is no body) and body. */
public record HttpResponse(int status, String contentType, byte[] body) {
    public static final String MSGPACK = "application/msgpack";

    public static HttpResponse msgpack(int status, byte[] body) {
        return new HttpResponse(status, MSGPACK, body);
    }

    public static HttpResponse empty(int status) {
        return new HttpResponse(status, null, new byte[0]);
    }

    public static HttpResponse text(int status, String contentType, String text) {
        return new HttpResponse(status, contentType, text.getBytes(StandardCharsets.UTF_8));
    }
}
