package dev.redsim.queue.jq.http;

import java.util.Map;

/** A whole request, decoded: method, path without the query, query parameters, lower-case headers, body. */
public record HttpRequest(String method, String path, Map<String, String> query, Map<String, String> headers,
                          byte[] body) {
    public String header(String name) {
        return headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }

    /** True when the client asked for JSON rather than MessagePack (the web page does). */
    public boolean wantsJson() {
        String accept = header("accept");
        return accept != null && accept.contains("application/json");
    }
}
