package dev.redsim.queue.jq.http;

import java.util.HashMap;
import java.util.Map;

/** A method and a path template ("/jobs/{id}/result") with its handler. */
public record Route(String method, String template, Handler handler) {
    @FunctionalInterface
    public interface Handler {
        HttpResponse handle(HttpRequest request, Map<String, String> params) throws Exception;
    }

    /** The template's parameters bound from {@code path}, or null when the path does not fit the template. */
    Map<String, String> match(String path) {
        String[] want = template.split("/", -1);
        String[] got = path.split("/", -1);
        if (want.length != got.length) {
            return null;
        }
        Map<String, String> params = new HashMap<>();
        for (int i = 0; i < want.length; i++) {
            if (want[i].startsWith("{") && want[i].endsWith("}")) {
                if (got[i].isEmpty()) {
                    return null;
                }
                params.put(want[i].substring(1, want[i].length() - 1), got[i]);
            } else if (!want[i].equals(got[i])) {
                return null;
            }
        }
        return params;
    }
}
