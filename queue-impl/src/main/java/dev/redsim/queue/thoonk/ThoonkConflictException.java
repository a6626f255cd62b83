package dev.redsim.queue.thoonk;

/**
 * An operation whose WATCHed keys changed under it on every one of its {@link Watched#MAX_ATTEMPTS} attempts:
 * nothing was written. The caller may try again later; a loop without a bound would spin for as long as others
 * keep writing the feed.
 */
public final class ThoonkConflictException extends RuntimeException {
    public ThoonkConflictException(String message) {
        super(message);
    }
}
