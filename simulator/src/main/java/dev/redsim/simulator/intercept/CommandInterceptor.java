package dev.redsim.simulator.intercept;

/**
 * Sees each command a client sends before the simulator runs it, and decides what happens to it: run it as usual,
 * answer it with a reply of the interceptor's choice (a fake value, an error such as {@code -READONLY} or
 * {@code -LOADING}), or cut the connection, before or after the command runs. For tests of how code copes with a
 * Redis that fails, in the manner of jedis-mock's interceptor and miniredis's hooks.
 *
 * <pre>{@code
 * try (var fault = redis.intercept(call -> call.is("set") ? CallOutcome.error("READONLY You can't write against a read only replica.")
 *                                                       : CallOutcome.proceed())) {
 *     assertThrows(JedisDataException.class, () -> jedis.set("k", "v"));
 * }
 * }</pre>
 *
 * <p>It runs on the simulator's one engine thread, for every command as it arrives from a client, before any of
 * Redis's checks (unknown command, arity, authentication, MULTI queueing), so it can answer commands the simulator
 * does not know. Commands a script runs (redis.call) and the queued commands EXEC runs are not separate calls from
 * a client and are not seen. It must be quick and must not call the simulator back (that would wait for the thread
 * it runs on).
 */
@FunctionalInterface
public interface CommandInterceptor {
    /** What to do with this call; {@link CallOutcome#proceed()} to run it as usual. */
    CallOutcome intercept(InterceptedCall call);
}
