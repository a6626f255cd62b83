package dev.redsim.queue.script;

/**
 * How a queue applies its state transitions. {@link #SCRIPTS} (the default): each transition is one Lua script run
 * atomically by the server, one round trip, no conflicts between workers, and times read from Redis's TIME at the
 * moment of the transition. {@link #OPTIMISTIC}: the WATCH / MULTI / EXEC forms, for a Redis where scripts are
 * forbidden (ACL or a managed service); several round trips per transition, retried when workers conflict, and times
 * read from the client's clock (a RedisClock: Redis's TIME sampled once a second).
 */
public enum Transitions {
    SCRIPTS,
    OPTIMISTIC
}
