package dev.redsim.queue.jq.http;

import dev.redsim.queue.jq.Msgpack;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Routes requests to handlers: 404 for an unknown path, 405 for a known path with another method, 400 for
 * malformed input (bad MessagePack, missing fields, bad numbers), 500 otherwise. The route list is public so the
 * OpenAPI test can check that the document and the server agree.
 */
public final class Router implements HttpServer.Handler {
    private final List<Route> routes = new ArrayList<>();

    public Router add(String method, String template, Route.Handler handler) {
        routes.add(new Route(method, template, handler));
        return this;
    }

    public List<Route> routes() {
        return List.copyOf(routes);
    }

    @Override
    public HttpResponse handle(HttpRequest request) {
        boolean pathKnown = false;
        for (Route route : routes) {
            Map<String, String> params = route.match(request.path());
            if (params == null) {
                continue;
            }
            pathKnown = true;
            if (route.method().equals(request.method())) {
                return invoke(route, request, params);
            }
        }
        return Problems.problem(pathKnown ? 405 : 404, pathKnown ? "method not allowed" : "no such path");
    }

    private static HttpResponse invoke(Route route, HttpRequest request, Map<String, String> params) {
        try {
            return route.handler().handle(request, params);
        } catch (Msgpack.MalformedException | IllegalArgumentException | NullPointerException
                 | org.msgpack.core.MessageTypeCastException | org.msgpack.core.MessageIntegerOverflowException e) {
            return Problems.problem(400, e.getMessage() == null ? e.toString() : e.getMessage());
        } catch (Exception e) {
            return Problems.problem(500, e.toString());
        }
    }
}
