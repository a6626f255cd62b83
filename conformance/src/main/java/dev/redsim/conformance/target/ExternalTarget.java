package dev.redsim.conformance.target;

import java.net.URI;

/** A server someone else runs, named by a redis://host:port URL (REDIS_URL). Never flushed by close. */
public final class ExternalTarget implements RedisTarget {
    private final String host;
    private final int port;

    public ExternalTarget(String url) {
        URI uri = URI.create(url);
        this.host = uri.getHost() == null ? "127.0.0.1" : uri.getHost();
        this.port = uri.getPort() < 0 ? 6379 : uri.getPort();
    }

    @Override
    public String name() {
        return "external";
    }

    @Override
    public String host() {
        return host;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public void close() {
    }
}
