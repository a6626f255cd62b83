package dev.redsim.queue.conveyor;

/**
 * Add was given a uuid that Conveyor already knows (its jobs:&lt;uuid&gt; record exists): nothing was written. Two
 * copies of one uuid would share one lease key, one record and one active-set entry, so neither could be told
 * apart from the other; a caller that retries an Add whose reply it lost can treat this as "it was added".
 */
public final class DuplicateJobException extends ConveyorException {
    private final String uuid;

    public DuplicateJobException(String uuid) {
        super("job " + uuid + " was already added");
        this.uuid = uuid;
    }

    public String uuid() {
        return uuid;
    }
}
