package dev.redsim.queue.jq.master;

import dev.redsim.queue.jq.JqKeys;
import dev.redsim.queue.jq.JqOptions;

import java.time.InstantSource;
import java.util.List;

/**
 * How a master runs, beyond where it listens and which Redis it uses.
 *
 * @param keys          key prefix: "jq:" by default; "{jq}:" keeps every key in one Redis Cluster slot
 * @param options       backoff, result and finished-record retention
 * @param clock         where all time comes from (leases, deadlines, rate windows, retention); null (the default)
 *                      means Redis's TIME ({@link dev.redsim.queue.time.RedisClock}), so every master sharing the
 *                      Redis measures on one clock whatever its host's clock says
 * @param tickMillis    upkeep period (timeouts, due retries, sweeps); 0 = none (tests call tick())
 * @param apiToken      when not null, every route but the page and /openapi.json needs
 *                      {@code Authorization: Bearer <token>} (401 otherwise)
 * @param pushAllowList URL prefixes that POST /workers may register (e.g. "http://10.0.0.7:8081/"); empty (the
 *                      default) turns push delivery off: the master then never calls a URL a client named
 */
public record MasterSettings(JqKeys keys, JqOptions options, InstantSource clock, long tickMillis, String apiToken,
                             List<String> pushAllowList) {
    public MasterSettings {
        pushAllowList = List.copyOf(pushAllowList);
        if (apiToken != null && apiToken.isBlank()) {
            throw new IllegalArgumentException("an API token must not be blank");
        }
    }

    public static MasterSettings defaults() {
        return new MasterSettings(JqKeys.standard(), JqOptions.defaults(), null, 100, null,
                List.of());
    }

    public MasterSettings withKeys(JqKeys k) {
        return new MasterSettings(k, options, clock, tickMillis, apiToken, pushAllowList);
    }

    public MasterSettings withOptions(JqOptions o) {
        return new MasterSettings(keys, o, clock, tickMillis, apiToken, pushAllowList);
    }

    public MasterSettings withClock(InstantSource c, long tick) {
        return new MasterSettings(keys, options, c, tick, apiToken, pushAllowList);
    }

    public MasterSettings withApiToken(String token) {
        return new MasterSettings(keys, options, clock, tickMillis, token, pushAllowList);
    }

    public MasterSettings withPushAllowList(List<String> prefixes) {
        return new MasterSettings(keys, options, clock, tickMillis, apiToken, prefixes);
    }

    /** True when push delivery may call this URL: it starts with an allowed prefix. */
    boolean pushAllowed(String url) {
        return pushAllowList.stream().anyMatch(url::startsWith);
    }
}
