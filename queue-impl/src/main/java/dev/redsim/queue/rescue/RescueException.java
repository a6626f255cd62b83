package dev.redsim.queue.rescue;

/** Base of rescue's errors. Redis failures surface as Jedis's own exceptions. */
public class RescueException extends RuntimeException {
    public RescueException(String message) {
        super(message);
    }
}
