package dev.redsim.simulator.engine;

import dev.redsim.simulator.server.ClientConnection;

/**
 * Client eviction (Redis 7.0's maxmemory-clients): when the memory all clients hold reaches the limit, the
 * biggest clients that may be evicted are closed until the total is under it again. CLIENT NO-EVICT exempts a
 * client (its memory still counts in the total). The limit is bytes, or a percentage of maxmemory, and never less
 * than 128 KB, so that a bad setting cannot cut every connection.
 */
final class ClientEviction {
    private static final long MINIMUM_LIMIT = 128 * 1024;

    private final Engine engine;
    /** maxmemory-clients as set: bytes, or (when {@link #percent}) a percentage of maxmemory. Read on every command. */
    private long setting;
    private boolean percent;

    ClientEviction(Engine engine, Config config) {
        this.engine = engine;
        parse(config.get("maxmemory-clients")); // and the engine's listener on each CONFIG SET
    }

    void parse(String value) {
        percent = value.endsWith("%");
        setting = Long.parseLong(percent ? value.substring(0, value.length() - 1) : value);
    }

    /** Redis's getClientEvictionLimit: 0 when client eviction is off. */
    long limit() {
        long limit = percent ? (long) ((double) engine.maxmemory() * setting / 100) : setting;
        return limit != 0 && limit < MINIMUM_LIMIT ? MINIMUM_LIMIT : limit;
    }

    /**
     * Redis's evictClients: closes the biggest evictable client while the clients' total is at or over the limit.
     * O(clients) per client evicted; nothing when the limit is off or not reached.
     */
    void evictIfOverLimit() {
        long limit = limit();
        if (limit == 0 || engine.clientsMemory() < limit) {
            return;
        }
        long total = engine.clientsMemory();
        while (total >= limit) {
            ClientConnection biggest = null;
            for (ClientConnection client : engine.clients()) {
                if (!client.closed() && !client.noEvict()
                        && (biggest == null || client.accountedMemory() > biggest.accountedMemory())) {
                    biggest = client;
                }
            }
            if (biggest == null) {
                return; // over the limit with every evictable client gone: Redis logs it and goes on
            }
            total -= biggest.accountedMemory();
            engine.stats().evictedClients++;
            engine.closeNow(biggest);
        }
    }
}
