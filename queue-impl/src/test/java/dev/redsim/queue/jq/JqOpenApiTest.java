package dev.redsim.queue.jq;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.queue.jq.http.Route;
import dev.redsim.queue.jq.master.JqMaster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAPI document served by the master against the master itself: the same set of (method, path) both ways;
 * every operation called with the document's own examples (deletes last), answering a documented status with a
 * body that fits the documented schema (every field documented, every required field present); and every
 * operation that documents 400 answering 400 to a body that is not MessagePack.
 */
class JqOpenApiTest {
    private static final List<String> METHODS = List.of("get", "post", "put", "delete");
    private static JqMaster master;
    private static JsonObject document;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        RedisTarget target = SharedTargets.simulator();
        try (RespClient client = new RespClient(target.host(), target.port())) {
            client.call("FLUSHALL");
        }
        master = JqMaster.start(URI.create("redis://" + target.host() + ":" + target.port()), "127.0.0.1", 0,
                dev.redsim.queue.jq.master.MasterSettings.defaults().withPushAllowList(List.of("http://127.0.0.1:")));
        HttpResponse<String> doc = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                master.uri().resolve("/openapi.json")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(doc.statusCode()).isEqualTo(200);
        assertThat(doc.headers().firstValue("content-type")).hasValue("application/json");
        document = JsonParser.parseString(doc.body()).getAsJsonObject();
    }

    @AfterAll
    static void stop() {
        master.close();
    }

    @Test
    void documentAndServerHaveTheSameOperations() {
        Set<String> documented = new TreeSet<>();
        for (Map.Entry<String, JsonElement> path : document.getAsJsonObject("paths").entrySet()) {
            for (String method : path.getValue().getAsJsonObject().keySet()) {
                documented.add(method.toUpperCase() + " " + path.getKey());
            }
        }
        Set<String> served = new TreeSet<>();
        for (Route r : master.router().routes()) {
            served.add(r.method() + " " + r.template());
        }
        assertThat(served).isEqualTo(documented);
    }

    @Test
    void everyOperationAnswersAsDocumented() throws Exception {
        SchemaCheck schemas = new SchemaCheck(document);
        List<String> problems = new ArrayList<>();
        List<Runnable> deletes = new ArrayList<>();
        int calls = 0;
        for (Map.Entry<String, JsonElement> path : document.getAsJsonObject("paths").entrySet()) {
            for (String method : METHODS) {
                JsonObject op = path.getValue().getAsJsonObject().getAsJsonObject(method);
                if (op == null) {
                    continue;
                }
                Runnable call = () -> problems.addAll(callAsDocumented(schemas, path.getKey(), method, op));
                if (method.equals("delete")) {
                    deletes.add(call);
                } else {
                    call.run();
                }
                calls++;
            }
        }
        deletes.forEach(Runnable::run);
        System.out.printf("jq openapi: %d operations called with the document's examples%n", calls);
        assertThat(problems).isEmpty();
    }

    @Test
    void malformedBodiesAreRejectedWhereDocumented() throws Exception {
        int checked = 0;
        for (Map.Entry<String, JsonElement> path : document.getAsJsonObject("paths").entrySet()) {
            for (String method : METHODS) {
                JsonObject op = path.getValue().getAsJsonObject().getAsJsonObject(method);
                if (op == null || !op.has("requestBody") || !op.getAsJsonObject("responses").has("400")) {
                    continue;
                }
                String uri = concretePath(path.getKey(), op);
                HttpResponse<byte[]> r = send(method, uri, new byte[]{(byte) 0xc1}, "application/msgpack");
                assertThat(r.statusCode()).as(method + " " + uri).isEqualTo(400);
                assertThat(Msgpack.fields(Msgpack.decode(r.body()))).containsKey("error");
                checked++;
            }
        }
        assertThat(checked).isGreaterThanOrEqualTo(4);
    }

    private List<String> callAsDocumented(SchemaCheck schemas, String template, String method, JsonObject op) {
        List<String> problems = new ArrayList<>();
        String where = method.toUpperCase() + " " + template;
        try {
            byte[] body = null;
            if (op.has("requestBody")) {
                JsonObject media = op.getAsJsonObject("requestBody").getAsJsonObject("content")
                        .getAsJsonObject("application/msgpack");
                body = Msgpack.encode(fromJson(media.get("example")));
            }
            HttpResponse<byte[]> r = send(method, concretePath(template, op), body, "application/msgpack");
            JsonObject responses = op.getAsJsonObject("responses");
            String status = String.valueOf(r.statusCode());
            if (!responses.has(status)) {
                return List.of(where + ": undocumented status " + status + " "
                        + new String(r.body(), StandardCharsets.UTF_8));
            }
            if (r.statusCode() >= 300) {
                problems.add(where + ": the document's example got " + status);
            }
            JsonObject response = schemas.resolve(responses.getAsJsonObject(status));
            if (!response.has("content")) {
                if (r.body().length != 0) {
                    problems.add(where + ": a body where none is documented");
                }
                return problems;
            }
            JsonObject content = response.getAsJsonObject("content");
            String type = r.headers().firstValue("content-type").orElse("");
            String mediaType = content.keySet().stream().filter(type::startsWith).findFirst().orElse(null);
            if (mediaType == null) {
                return List.of(where + ": content-type " + type + " not in " + content.keySet());
            }
            if (mediaType.equals("application/msgpack")) {
                schemas.check(Msgpack.decode(r.body()), content.getAsJsonObject(mediaType).getAsJsonObject("schema"),
                        where, problems);
            }
            if (content.has("application/json") && op.getAsJsonObject("responses").has("200")
                    && template.startsWith("/ui") || template.equals("/constraints")) {
                HttpResponse<byte[]> json = send(method, concretePath(template, op), null, "application/json");
                JsonElement parsed = JsonParser.parseString(new String(json.body(), StandardCharsets.UTF_8));
                schemas.check(fromJson(parsed), content.getAsJsonObject("application/json").getAsJsonObject("schema"),
                        where + " (json)", problems);
            }
        } catch (Exception e) {
            problems.add(where + ": " + e);
        }
        return problems;
    }

    private String concretePath(String template, JsonObject op) {
        String path = template;
        List<String> query = new ArrayList<>();
        if (op.has("parameters")) {
            for (JsonElement p : op.getAsJsonArray("parameters")) {
                JsonObject param = new SchemaCheck(document).resolve(p.getAsJsonObject());
                String value = param.get("example").getAsString();
                if (param.get("in").getAsString().equals("path")) {
                    path = path.replace("{" + param.get("name").getAsString() + "}", value);
                } else {
                    query.add(param.get("name").getAsString() + "=" + value);
                }
            }
        }
        return query.isEmpty() ? path : path + "?" + String.join("&", query);
    }

    private HttpResponse<byte[]> send(String method, String path, byte[] body, String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(master.uri().resolve(path)).header("Accept", accept);
        b.method(method.toUpperCase(), body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(body));
        if (body != null) {
            b.header("Content-Type", "application/msgpack");
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** JSON (examples, UI answers) as the MessagePack value it stands for; whole numbers become integers. */
    static Value fromJson(JsonElement e) {
        if (e == null || e.isJsonNull()) {
            return ValueFactory.newNil();
        } else if (e.isJsonObject()) {
            Map<Value, Value> m = new LinkedHashMap<>();
            e.getAsJsonObject().entrySet().forEach(x -> m.put(ValueFactory.newString(x.getKey()), fromJson(x.getValue())));
            return ValueFactory.newMap(m);
        } else if (e.isJsonArray()) {
            List<Value> items = new ArrayList<>();
            e.getAsJsonArray().forEach(x -> items.add(fromJson(x)));
            return ValueFactory.newArray(items);
        }
        var p = e.getAsJsonPrimitive();
        if (p.isBoolean()) {
            return ValueFactory.newBoolean(p.getAsBoolean());
        } else if (p.isString()) {
            return ValueFactory.newString(p.getAsString());
        }
        double d = p.getAsDouble();
        return d == Math.rint(d) && !p.getAsString().contains(".") ? ValueFactory.newInteger(p.getAsLong())
                : ValueFactory.newFloat(d);
    }
}
