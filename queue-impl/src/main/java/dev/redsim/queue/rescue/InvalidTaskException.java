package dev.redsim.queue.rescue;

/** The task breaks the README's rules (unknown delivery method, bad @every, mixed gate values, ...). */
public final class InvalidTaskException extends RescueException {
    public InvalidTaskException(String message) {
        super(message);
    }
}
