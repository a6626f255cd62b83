package dev.redsim.queue.jq.master;

import dev.redsim.queue.jq.http.HttpRequest;
import dev.redsim.queue.jq.http.HttpResponse;
import dev.redsim.queue.jq.http.HttpServer;
import dev.redsim.queue.jq.http.Problems;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The API token check in front of the router: every request but the web page and the OpenAPI document (which
 * hold no data) must carry {@code Authorization: Bearer <token>}; others get 401. The comparison takes the same
 * time whatever the prefix that matches (MessageDigest.isEqual), so the token cannot be guessed byte by byte.
 */
final class TokenGuard implements HttpServer.Handler {
    private final HttpServer.Handler next;
    private final byte[] expected;

    TokenGuard(String token, HttpServer.Handler next) {
        this.next = next;
        this.expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public HttpResponse handle(HttpRequest request) {
        boolean open = request.method().equals("GET")
                && (request.path().equals("/") || request.path().equals("/openapi.json"));
        String given = request.header("authorization");
        if (open || given != null && MessageDigest.isEqual(expected, given.getBytes(StandardCharsets.UTF_8))) {
            return next.handle(request);
        }
        return Problems.problem(401, "missing or wrong API token (Authorization: Bearer <token>)");
    }
}
