package dev.redsim.queue.jq.http;

import dev.redsim.queue.jq.Msgpack;

/** Error bodies: a MessagePack map {error: message}, documented as Problem in the OpenAPI document. */
public final class Problems {
    private Problems() {
    }

    public static HttpResponse problem(int status, String message) {
        return HttpResponse.msgpack(status, Msgpack.encode(Msgpack.map("error", message)));
    }
}
